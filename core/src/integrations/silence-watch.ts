// The host's side of `HealthReporter.expectData`: while the integration is active, a gap of more than
// `within` ms between feed inputs (or from activate to the first; only that one with `onlyFirst`) turns
// health degraded with the integration's message, unless health already says something else (the
// integration's own reason is the more precise one). The next input, or deactivate, takes it back.
import type { DataExpectation } from '../sdk/game-integration.js';

export class SilenceWatch {
  #expectation: DataExpectation | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #watching = false;
  #heard = false;
  #reported = false;

  /** `degraded` reports to the integration's health; `shown` is what health says now. */
  constructor(
    private readonly degraded: (reason: string | undefined) => void,
    private readonly shown: () => string | undefined,
  ) {}

  /** What to wait for, from the next activation (and from now, when active). */
  expect(expectation: DataExpectation): void {
    this.#expectation = expectation;
    if (this.#watching) this.arm();
  }

  /** At activate. */
  start(): void {
    this.#watching = true;
    this.#heard = false;
    this.arm();
  }

  /** At every feed input handed to the integration. */
  heard(): void {
    if (!this.#watching) return;
    this.#heard = true;
    this.takeBack();
    this.arm();
  }

  /** At deactivate: the silence of an idle integration is nobody's problem. */
  stop(): void {
    this.#watching = false;
    this.disarm();
    this.takeBack();
  }

  private arm(): void {
    this.disarm();
    const expectation = this.#expectation;
    if (!expectation || (expectation.onlyFirst && this.#heard)) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (this.shown() !== undefined) return;
      this.#reported = true;
      this.degraded(expectation.message);
    }, expectation.within);
    // A warning never keeps the service alive.
    this.#timer.unref?.();
  }

  private disarm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Clears the warning if it is still what health shows (the plugin may have said something else since). */
  private takeBack(): void {
    if (this.#reported && this.#expectation && this.shown() === this.#expectation.message) this.degraded(undefined);
    this.#reported = false;
  }
}
