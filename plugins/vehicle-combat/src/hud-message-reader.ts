// Reads one War Thunder HUD damage message ("=TAG= Name (Vehicle) destroyed Other (Vehicle)") and
// says what it means for the local player. Pure; never throws.
import { KILL_PHRASES, OWN_DEATH_PHRASES } from './hud-phrases.js';

export type HudOutcome = 'Kill' | 'Death';

/**
 * `Kill` when `nickname` is the actor of a destroy/shot-down message (and the target is not a
 * missile), `Death` when it is the target or crashed; `undefined` for everything else (damage,
 * awards, disconnects, other players).
 */
export function readHudMessage(message: string, nickname: string): HudOutcome | undefined {
  const ownDeath = findVerb(message, OWN_DEATH_PHRASES);
  if (ownDeath !== undefined) {
    return namesPlayer(withoutVehicle(message.slice(0, ownDeath.start)), nickname) ? 'Death' : undefined;
  }
  const kill = findVerb(message, KILL_PHRASES);
  if (kill === undefined) return undefined;
  const target = withoutVehicle(message.slice(kill.end));
  if (namesPlayer(withoutVehicle(message.slice(0, kill.start)), nickname)) return isWeapon(target) ? undefined : 'Kill';
  return namesPlayer(target, nickname) ? 'Death' : undefined;
}

interface VerbPosition {
  start: number;
  end: number;
}

/** The earliest phrase outside parentheses and quotes (vehicle and award names), as a whole word. */
function findVerb(message: string, phrases: readonly string[]): VerbPosition | undefined {
  const outside = outsideBracketsAndQuotes(message);
  let best: VerbPosition | undefined;
  for (const phrase of phrases) {
    for (let start = message.indexOf(phrase); start >= 0; start = message.indexOf(phrase, start + 1)) {
      const end = start + phrase.length;
      if (best !== undefined && start >= best.start) break;
      if (outside[start] && outside[end - 1] && standsAlone(message, start, end)) {
        best = { start, end };
        break;
      }
    }
  }
  return best;
}

/** Per character: true when it is outside every `(…)` and `"…"`. */
function outsideBracketsAndQuotes(message: string): boolean[] {
  const outside: boolean[] = [];
  let depth = 0;
  let quoted = false;
  for (const character of message) {
    if (character === '"') quoted = !quoted;
    else if (!quoted && character === '(') depth += 1;
    outside.push(depth === 0 && !quoted && character !== '"');
    if (!quoted && character === ')' && depth > 0) depth -= 1;
    // Characters outside the BMP take two UTF-16 units; keep the array aligned with string indexes.
    if (character.length === 2) outside.push(outside.at(-1)!);
  }
  return outside;
}

// Scripts written with spaces between words need a word boundary ("destroyed" is not in "undestroyed");
// Chinese and Japanese phrases run into the names around them.
const SPACED_LETTER = /[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}\p{N}]/u;
const WORD_CHARACTER = /[\p{L}\p{N}_]/u;

function standsAlone(message: string, start: number, end: number): boolean {
  const before = message[start - 1];
  const after = message[end];
  const first = message[start]!;
  const last = message[end - 1]!;
  if (SPACED_LETTER.test(first) && before !== undefined && WORD_CHARACTER.test(before)) return false;
  if (SPACED_LETTER.test(last) && after !== undefined && WORD_CHARACTER.test(after)) return false;
  return true;
}

/** "=TAG= Name (Typ 90 (B) "Fuji")" → "=TAG= Name"; text without a trailing `(…)` is kept as it is. */
function withoutVehicle(side: string): string {
  const text = side.trim();
  if (!text.endsWith(')')) return text;
  let depth = 0;
  for (let index = text.length - 1; index >= 0; index--) {
    if (text[index] === ')') depth += 1;
    else if (text[index] === '(' && --depth === 0) return text.slice(0, index).trim();
  }
  return text;
}

/** A missile or bomb shot down ("destroyed weapons/su_r_77_1_default/short") is not a kill. */
function isWeapon(target: string): boolean {
  return target.startsWith('weapons/');
}

// What may stand before the nickname: a squadron tag ("-GFF7-", "[MVolk]", "┾GYM1┿") and a space,
// then a platform mark such as the console sign "⋇". Anything else is another player whose name ends
// like ours ("Sam" is not "Sam9841", "porthos" is not "_porthos").
const NAME_PREFIX = /^(?:[^\p{L}\p{N}\s]\S*[^\p{L}\p{N}\s] )?\p{S}?$/u;
// Console accounts carry a platform suffix in some places ("Name@psn", "Name@live") but not in the HUD.
const PLATFORM_SUFFIX = /@(?:psn|live)$/;

export function namesPlayer(name: string, nickname: string): boolean {
  const candidates = [nickname, nickname.replace(PLATFORM_SUFFIX, '')].filter((candidate) => candidate !== '');
  return candidates.some((candidate) => name.endsWith(candidate) && NAME_PREFIX.test(name.slice(0, name.length - candidate.length)));
}
