// Who wants full-detail frames in the next recording. They cost a share of a core, so a recording nobody
// reads them from goes without: a reader (on-screen text recognition for a game) says it wants them
// while its game runs, and withdraws when the game exits or the reader is switched off. The recorder
// reads the demand when a recording starts.
import { injectable } from 'tsyringe';

@injectable()
export class FrameDemand {
  /** Reader → the running game it wants frames for. */
  readonly #wanted = new Map<string, string>();

  /** `reader` wants screen frames while `game` runs; undefined withdraws that wish. */
  want(reader: string, game: string | undefined): void {
    if (game === undefined) this.#wanted.delete(reader);
    else this.#wanted.set(reader, game);
  }

  /** Whether a recording starting now should carry screen frames. */
  get screenFramesWanted(): boolean {
    return this.#wanted.size > 0;
  }
}
