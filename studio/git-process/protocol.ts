/** What the studio's process, its bridge thread and the git helper pass each other (decision 0061). */

/** One git command: what `execFileSync("git", args, options)` is given. */
export interface GitRequest {
  args: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  input?: string;
  maxBuffer: number;
}

/** What `spawnSync` gave for it; `error` when git could not be started or outgrew its buffer. */
export interface GitAnswer {
  status: number | null;
  signal: NodeJS.Signals | null;
  pid: number;
  stdout: string;
  stderr: string;
  error?: Record<string, unknown> & { message: string };
}

/**
 * The bridge's answer when the helper is gone. `ran` when it ended with the command written to it (killed
 * while git ran): whether git did its work is unknown, so the command fails as a git that was killed
 * would. Otherwise (it could not start) the command runs in the studio's process itself.
 */
export interface HelperGone {
  gone: string;
  ran: boolean;
}
