// The host's side of `HealthReporter.expectData`: while the integration is active, a gap of more than
// `within` ms between feed inputs (or from activate to the first) turns health degraded with the
// integration's message; the next input, or deactivate, takes that message back.
import type { DataExpectation } from '../sdk/game-integration.js';
import { SilenceWarning } from './silence-warning.js';

export class SilenceWatch {
  readonly #warning: SilenceWarning;
  #expectation: DataExpectation | undefined;
  #watching = false;
  #reported = false;

  /** `degraded` reports to the integration's health; `shows` tells whether a reason is still the one shown there. */
  constructor(private readonly degraded: (reason: string | undefined) => void, private readonly shows: (reason: string) => boolean) {
    this.#warning = new SilenceWarning({
      degraded: (reason) => {
        this.#reported = true;
        degraded(reason);
      },
    });
  }

  /** What to wait for, from the next activation (and from now, when active). */
  expect(expectation: DataExpectation): void {
    this.#expectation = expectation;
    if (this.#watching) this.arm();
  }

  /** At activate. */
  start(): void {
    this.#watching = true;
    this.arm();
  }

  /** At every feed input handed to the integration. */
  heard(): void {
    if (!this.#watching) return;
    this.takeBack();
    this.arm();
  }

  /** At deactivate: the silence of an idle integration is nobody's problem. */
  stop(): void {
    this.#watching = false;
    this.#warning.stop();
    this.takeBack();
  }

  private arm(): void {
    if (this.#expectation) this.#warning.start({ message: this.#expectation.message, timeoutMs: this.#expectation.within });
  }

  /** Clears the warning if it is still what health shows (the plugin may have said something else since). */
  private takeBack(): void {
    if (this.#reported && this.#expectation && this.shows(this.#expectation.message)) this.degraded(undefined);
    this.#reported = false;
  }
}
