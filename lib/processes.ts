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
