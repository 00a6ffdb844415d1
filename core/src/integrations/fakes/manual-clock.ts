// A clock that moves only when told: the test bed's, and the tape player's (set to each entry's time).
import type { Clock } from '../../sdk/game-integration.js';

/** Starts at `start` (default 2026-01-01T12:00:00Z). */
export class ManualClock implements Clock {
  #time: number;

  constructor(start: Date = new Date(Date.UTC(2026, 0, 1, 12))) {
    this.#time = start.getTime();
  }

  now(): Date {
    return new Date(this.#time);
  }

  set(at: Date): void {
    this.#time = at.getTime();
  }

  advance(milliseconds: number): void {
    this.#time += milliseconds;
  }
}
