// Health for an integration that hears nothing: a warning reported when the input it waits for (a push,
// a poll answer, a log file opening, a replay) has not come within a time limit.
import type { HealthReporter } from '../sdk/game-integration.js';

export interface SilenceWarningStart {
  /** What health says when nothing came, in words the user can act on. */
  message: string;
  /**
   * How long after `start` the silence becomes a warning. Given at each start rather than at construction,
   * so a test's subclass can override the integration's timeout field (set after the base constructor ran).
   */
  timeoutMs: number;
}

/**
 * One warning timer: `start` it at activate (again to restart it), `stop` it when the input comes and at
 * deactivate. It only ever reports the warning: what health says once input arrives is the integration's
 * call, since it depends on what the input says.
 */
export class SilenceWarning {
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly health: Pick<HealthReporter, 'degraded'>) {}

  start({ message, timeoutMs }: SilenceWarningStart): void {
    this.stop();
    const timer = setTimeout(() => {
      this.#timer = undefined;
      this.health.degraded(message);
    }, timeoutMs);
    // A warning never keeps the service alive; a tape's virtual clock may hand out plain numbers.
    timer.unref?.();
    this.#timer = timer;
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
