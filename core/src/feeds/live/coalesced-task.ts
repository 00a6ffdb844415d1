// Runs an async check one at a time: requests made while it runs are folded into one more run, so
// timers and file-system events can both ask for a check without checks ever overlapping.

export class CoalescedTask {
  private running: Promise<void> | undefined;
  private rerun = false;
  private stopped = false;

  constructor(
    private readonly task: () => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Resolves once a run that started after this request has finished. */
  request(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.rerun = true;
      return this.running;
    }
    this.running = this.runUntilSettled();
    return this.running;
  }

  /** No runs after this; resolves when the one in progress (if any) has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async runUntilSettled(): Promise<void> {
    try {
      do {
        this.rerun = false;
        try {
          await this.task();
        } catch (error) {
          this.onError(error);
        }
      } while (this.rerun && !this.stopped);
    } finally {
      this.running = undefined;
    }
  }
}
