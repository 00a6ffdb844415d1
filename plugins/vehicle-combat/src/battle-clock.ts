// Places HUD messages in time. A new message happened between the previous answer and the one that
// brought it; each also carries the battle clock in whole seconds, pinned to wall time by the smallest
// (arrival − battle clock) seen in this battle. Both narrow the moment down: the answers when polls
// come steadily, the battle clock when an answer came late (a stalled poll brings seconds-old messages).

/** Battle-clock readings further back than this mean a new battle (its clock starts again). */
const RESTART_SLACK_SECONDS = 2;

export interface AnswerWindow {
  /** When the previous answer arrived (messages in this one are newer), if there was one. */
  readonly after: Date | undefined;
  /** When the answer holding the message arrived. */
  readonly arrivedAt: Date;
}

export class BattleClock {
  #offsetMs: number | undefined;
  #latestSeconds: number | undefined;

  constructor(private readonly pollIntervalMs: number) {}

  reset(): void {
    this.#offsetMs = undefined;
    this.#latestSeconds = undefined;
  }

  /** When the message that arrived in `window` with battle clock `gameSeconds` happened. */
  place(window: AnswerWindow, gameSeconds: number | undefined): Date {
    const latest = window.arrivedAt.getTime();
    const earliest = Math.min(window.after?.getTime() ?? latest - this.pollIntervalMs, latest);
    if (gameSeconds === undefined) return middle(earliest, latest);

    this.observe(latest, gameSeconds);
    // The smallest (arrival − battle clock) overshoots the true offset by up to a poll interval, and the
    // event lies up to a second after its whole-second reading.
    const clockEarliest = this.#offsetMs! + gameSeconds * 1000 - this.pollIntervalMs;
    const clockLatest = this.#offsetMs! + gameSeconds * 1000 + 1000;
    const from = Math.max(earliest, clockEarliest);
    const to = Math.min(latest, clockLatest);
    return from <= to ? middle(from, to) : middle(earliest, latest);
  }

  private observe(arrivedMs: number, gameSeconds: number): void {
    if (this.#latestSeconds !== undefined && gameSeconds < this.#latestSeconds - RESTART_SLACK_SECONDS) this.reset();
    this.#latestSeconds = Math.max(this.#latestSeconds ?? gameSeconds, gameSeconds);
    const offsetMs = arrivedMs - gameSeconds * 1000;
    this.#offsetMs = Math.min(this.#offsetMs ?? offsetMs, offsetMs);
  }
}

function middle(fromMs: number, toMs: number): Date {
  return new Date((fromMs + toMs) / 2);
}
