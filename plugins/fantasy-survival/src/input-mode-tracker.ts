// Follows the local player's input mode in RuneScape: Dragonwilds' client log and tells which line is
// a death: the input mode changing into the dead state. Pure; never throws.
//
// The client logs each change as `… Changing input mode from [DIM_Gameplay] to [DIM_Dead]` after the
// Unreal Engine prefix (`[2026.09.28-22.03.13:176][246]LogCategory: `); the category is not matched.

/** The input mode of a player who is dead (waiting to respawn). */
export const DEAD_MODE = 'DIM_Dead';

const MODE_CHANGE = /Changing input mode from \[([^\]\s]+)\] to \[([^\]\s]+)\]/;

export class InputModeTracker {
  /** The mode the last change went to; `undefined` before the first one. */
  #mode: string | undefined;

  /**
   * True when `line` is the player dying. The same change logged again, a change from dead to dead
   * and the respawn (dead to anything else) are not deaths; the next death counts again only once a
   * change out of the dead state was seen.
   */
  read(line: string): boolean {
    const change = MODE_CHANGE.exec(line);
    if (!change) return false;
    const [, from, to] = change;
    const alreadyDead = this.#mode === DEAD_MODE || from === DEAD_MODE;
    this.#mode = to;
    return to === DEAD_MODE && !alreadyDead;
  }

  /** Forgets the mode: the game started over with a new log. */
  reset(): void {
    this.#mode = undefined;
  }
}
