/**
 * A small fake of GitHub's issues API, with state: labels, issues (open or closed, with labels) and their
 * comments. Answered in process (`call`, as scripts/lib/github.ts's client is called) or over HTTP on
 * loopback (`serve`), so a test can walk days in a loop and also run the command as the workflow does.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type { GitHub, GitHubCall } from "../../scripts/lib/github.ts";

export interface FakeIssue {
  number: number;
  title: string;
  body: string;
  state: "open" | "closed";
  labels: string[];
  comments: string[];
}

export class FakeGitHub {
  readonly labels = new Set<string>();
  readonly issues: FakeIssue[] = [];
  readonly requests: Array<{ method: string; path: string; authorization?: string | undefined }> = [];

  constructor(readonly repo = "example-firm/website") {}

  /** One request, as GitHub would answer it (the subset the project uses). */
  handle(method: string, url: string, body: Record<string, unknown> | undefined): { status: number; data: unknown } {
    const [path, query = ""] = url.split("?") as [string, string?];
    const params = new URLSearchParams(query);
    const base = `/repos/${this.repo}`;
    const page = Number(params.get("page") ?? 1);
    const perPage = Number(params.get("per_page") ?? 30);
    const paged = <T>(items: T[]) => items.slice((page - 1) * perPage, page * perPage);
    let match: RegExpExecArray | null;
    if (method === "GET" && (match = new RegExp(`^${base}/labels/([^/]+)$`).exec(path)))
      return this.labels.has(decodeURIComponent(match[1]!)) ? { status: 200, data: { name: match[1] } } : { status: 404, data: {} };
    if (method === "POST" && path === `${base}/labels`) {
      this.labels.add(String(body?.name));
      return { status: 201, data: { name: body?.name } };
    }
    if (method === "GET" && path === `${base}/issues`) {
      const label = params.get("labels");
      const state = params.get("state") ?? "open";
      const found = this.issues.filter((i) => (state === "all" || i.state === state) && (!label || i.labels.includes(label)));
      return {
        status: 200,
        data: paged(found).map((i) => ({ number: i.number, title: i.title, body: i.body, html_url: `https://github.test/${i.number}` })),
      };
    }
    if (method === "POST" && path === `${base}/issues`) {
      const issue: FakeIssue = {
        number: this.issues.length + 1,
        title: String(body?.title),
        body: String(body?.body ?? ""),
        state: "open",
        labels: ((body?.labels as string[] | undefined) ?? []).filter((l) => this.labels.has(l)),
        comments: [],
      };
      this.issues.push(issue);
      return {
        status: 201,
        data: { number: issue.number, html_url: `https://github.test/${issue.number}`, labels: issue.labels.map((name) => ({ name })) },
      };
    }
    if ((match = new RegExp(`^${base}/issues/(\\d+)(/comments|/labels)?$`).exec(path))) {
      const issue = this.issues[Number(match[1]) - 1];
      if (!issue) return { status: 404, data: { message: "Not Found" } };
      if (method === "GET" && match[2] === "/comments") return { status: 200, data: paged(issue.comments).map((text) => ({ body: text })) };
      if (method === "POST" && match[2] === "/comments") {
        issue.comments.push(String(body?.body));
        return { status: 201, data: { id: issue.comments.length } };
      }
      if (method === "POST" && match[2] === "/labels") {
        issue.labels.push(...((body?.labels as string[]) ?? []));
        return { status: 200, data: issue.labels.map((name) => ({ name })) };
      }
      if (method === "PATCH" && !match[2]) {
        if (body?.state === "closed" || body?.state === "open") issue.state = body.state;
        return { status: 200, data: { number: issue.number } };
      }
    }
    return { status: 404, data: { message: "Not Found" } };
  }

  /** The client, answered in process. */
  client(): GitHub {
    const call: GitHubCall = async <T>(method: string, path: string, body?: unknown, ok: number[] = [200, 201]) => {
      this.requests.push({ method, path });
      const answer = this.handle(method, path, body as Record<string, unknown> | undefined);
      if (!ok.includes(answer.status)) throw new Error(`GitHub answered ${answer.status} to ${method} ${path}`);
      return answer as { status: number; data: T };
    };
    return { repo: this.repo, call, runUrl: "" };
  }

  /** The same over HTTP on 127.0.0.1, on a port the OS picks; resolves to its URL and a stop. */
  async serve(): Promise<{ url: string; stop(): Promise<void> }> {
    const read = (req: IncomingMessage) =>
      new Promise<string>((done) => {
        let text = "";
        req.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
        req.on("end", () => done(text));
      });
    const server = createServer(async (req, res) => {
      const text = await read(req);
      this.requests.push({ method: req.method!, path: req.url!, authorization: req.headers.authorization });
      const answer = this.handle(req.method!, req.url!, text ? (JSON.parse(text) as Record<string, unknown>) : undefined);
      res.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify(answer.data));
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      stop: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))),
    };
  }

  /** The issues of a page (by the marker the reminders leave in the body). */
  issuesOf(page: string): FakeIssue[] {
    return this.issues.filter((issue) => issue.body.includes(`<!-- review-due page=${page} -->`));
  }
}
