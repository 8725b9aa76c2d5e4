/** The part of autocannon 9's API that bench/server.ts uses (the package ships no types). */
declare module "autocannon" {
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    workers?: number;
    headers?: Record<string, string>;
  }
  function autocannon(options: Options): Promise<Result>;
  namespace autocannon {
    export type { Result, Options };
  }
  export default autocannon;
}
