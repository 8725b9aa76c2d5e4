/**
 * GitHub's REST API as the project's scripts talk to it (the drift report, the review reminders): the
 * workflow's token as a bearer token, a 30 s bound, and anything but the statuses expected as one
 * sentence naming the call. Environment: GITHUB_TOKEN, GITHUB_REPOSITORY (owner/name), GITHUB_API_URL
 * (default https://api.github.com), and GITHUB_SERVER_URL and GITHUB_RUN_ID for a link to the run.
 */

export type GitHubCall = <T>(method: string, path: string, body?: unknown, ok?: number[]) => Promise<{ status: number; data: T }>;

export interface GitHub {
  repo: string;
  call: GitHubCall;
  /** The Actions run this is part of, for a link in what it writes ("" outside Actions). */
  runUrl: string;
}

/** The client from the environment; throws one sentence naming what is missing. */
export function gitHubFromEnv(agent: string, env: NodeJS.ProcessEnv = process.env): GitHub {
  const { GITHUB_TOKEN: token, GITHUB_REPOSITORY: repo, GITHUB_SERVER_URL: server, GITHUB_RUN_ID: runId } = env;
  const api = (env.GITHUB_API_URL || "https://api.github.com").replace(/\/+$/, "");
  if (!token) throw new Error("GITHUB_TOKEN is not set: the workflow passes secrets.GITHUB_TOKEN to this step in env");
  if (!repo || !/^[\w.-]+\/[\w.-]+$/.test(repo))
    throw new Error(`GITHUB_REPOSITORY must name the repository as owner/name, not "${repo ?? ""}"`);
  const call: GitHubCall = async <T>(method: string, path: string, body?: unknown, ok: number[] = [200, 201]) => {
    let response: Response;
    try {
      response = await fetch(`${api}${path}`, {
        method,
        headers: {
          accept: "application/vnd.github+json",
          authorization: `Bearer ${token}`,
          "user-agent": agent,
          "x-github-api-version": "2022-11-28",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      const cause = error instanceof Error ? ((error.cause as { message?: string } | undefined)?.message ?? error.message) : String(error);
      throw new Error(`${api} could not be reached: ${cause}`, { cause: error });
    }
    const text = await response.text();
    if (!ok.includes(response.status)) {
      let said = text.slice(0, 200);
      try {
        said = (JSON.parse(text) as { message?: string }).message ?? said;
      } catch {
        // Not JSON: the text as it came.
      }
      const hint = response.status === 401 || response.status === 403 ? "; check GITHUB_TOKEN and that the job has issues: write" : "";
      throw new Error(`GitHub answered ${response.status} (${said.trim() || "no message"}) to ${method} ${path}${hint}`);
    }
    return { status: response.status, data: (text ? JSON.parse(text) : undefined) as T };
  };
  const runUrl = server && runId ? `${server.replace(/\/+$/, "")}/${repo}/actions/runs/${runId}` : "";
  return { repo, call, runUrl };
}
