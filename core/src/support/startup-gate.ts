// While data migrations run, the service's socket is already open (so a frontend sees them) but the service
// has not finished starting: the gate is closed then. The dispatcher refuses commands with its reason, and the
// commands that ask for the first state (NewConnection, RequestState) wait until it opens.
export class StartupGate {
  private reason: string | undefined;
  private opened: Promise<void> = Promise.resolve();
  private release: () => void = () => {};

  /** Why commands are refused now, in words a person reads; undefined once the service has started. */
  get closedBecause(): string | undefined {
    return this.reason;
  }

  close(reason: string): void {
    if (this.reason === undefined) this.opened = new Promise((resolve) => (this.release = resolve));
    this.reason = reason;
  }

  open(): void {
    this.reason = undefined;
    this.release();
  }

  /** Resolves once the gate is open, at once when it is. */
  whenOpen(): Promise<void> {
    return this.opened;
  }
}
