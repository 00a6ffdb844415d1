// Follows the local player through the client log: who they are (`Setting user:`) and when a chat
// line says they died. Pure: one line in, what it meant out; never throws.
import { DeathMessageMatcher } from './death-message-matcher.js';
import { readLogLine } from './log-line.js';
import { readingsOfLine } from './log-text.js';

/**
 * - `player`: the line names the local user (from now on their deaths count).
 * - `death`: a chat line says the local player died (`template` is the message's key).
 * - `ignored`: anything else (other players' deaths, kills by the player, chat, non-chat lines), and
 *   every line while no `Setting user:` line has named the player.
 */
export type LineMeaning =
  { readonly kind: 'player'; readonly name: string } | { readonly kind: 'death'; readonly template: string } | { readonly kind: 'ignored' };

const IGNORED: LineMeaning = { kind: 'ignored' };

export class PlayerDeathTracker {
  #matcher: DeathMessageMatcher | undefined;

  /** The local player's name, once a `Setting user:` line has named them. */
  get player(): string | undefined {
    return this.#matcher?.player;
  }

  /** Sets the local player (from a scan of the file's beginning); `undefined` forgets them. */
  setPlayer(name: string | undefined): void {
    if (name === this.#matcher?.player) return;
    this.#matcher = name === undefined ? undefined : new DeathMessageMatcher(name);
  }

  /** Reads one log line as the tail feed delivers it (its bytes as latin1). */
  read(latin1Line: string): LineMeaning {
    // Names and log prefixes are ASCII: every reading agrees on them, so the first is enough.
    const readings = readingsOfLine(latin1Line);
    const line = readLogLine(readings[0]!);
    if (line.kind === 'user') {
      this.setPlayer(line.name);
      return { kind: 'player', name: line.name };
    }
    if (line.kind !== 'chat' || this.#matcher === undefined) return IGNORED;
    for (const reading of readings) {
      const chat = readLogLine(reading);
      const template = chat.kind === 'chat' ? this.#matcher.match(chat.text) : undefined;
      if (template !== undefined) return { kind: 'death', template };
    }
    return IGNORED;
  }
}
