/** Facts about other processes on this machine, for the tools that leave work behind them. */

/** Whether a process with this id is alive (one of another user counts: kill answers EPERM, not ESRCH). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Waits until a process group that was sent SIGTERM has ended (a process ended but not yet reaped counts
 * as alive): 5 s, then SIGKILL and 2 s more.
 */
export async function groupEnded(pid: number): Promise<void> {
  const until = async (ms: number) => {
    for (const end = Date.now() + ms; isRunning(-pid) && Date.now() < end;) await new Promise((done) => setTimeout(done, 50));
  };
  await until(5_000);
  if (!isRunning(-pid)) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Ended meanwhile.
  }
  await until(2_000);
}
