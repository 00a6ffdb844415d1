// Which bookmark, if any, a knock or kill of a replay gives the recording player.
import type { BookmarkType } from '@keyframe/core';
import type { ReplayEvent } from './replay-event.js';

/**
 * A knock is the moment that counts: knocking someone is a Kill, being knocked a Death. Finishing a
 * knocked player (or being finished) adds nothing; a kill without a knock before it (`bDBNO` false)
 * counts on its own. Knocking or killing yourself is a Death, never a Kill.
 */
export function bookmarkTypeOf(kind: 'knock' | 'kill', event: ReplayEvent, player: string): BookmarkType | undefined {
  if (kind === 'kill' && event.victimWasKnocked) return undefined;
  if (event.victim === player) return 'Death';
  if (event.instigator === player) return 'Kill';
  return undefined;
}
