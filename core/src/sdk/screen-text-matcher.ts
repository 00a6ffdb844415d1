// Turns what a screenText feed reads into game events: keywords in order, exclusion fragments with
// a confirmation window, and a cool-down per event type so one message on screen (shown for
// seconds, read many times) is one event. Decisions use frame times only, so a tape replays the same.
import type { BookmarkType } from '../protocol/index.js';
import type { ScreenTextInput } from './feed-types.js';
import { containsKeyword } from './keyword-match.js';

export interface ScreenTextKeyword {
  /** Matched by `containsKeyword`: exact up to 5 characters, OCR errors tolerated beyond. */
  keyword: string;
  type: BookmarkType;
  /**
   * Fragments (case-insensitive substrings) that make this a different message: `shot` keeps
   * "SHOT ON GOAL" from being a goal. A match waits `excludeWindowMs` and is dropped if one shows.
   */
  exclude?: readonly string[];
}

export interface ScreenTextMatcherOptions {
  /** Tried in order; the first that matches a frame ends the search for that frame. */
  keywords: readonly ScreenTextKeyword[];
  /** After an event of a type, matches of that type are ignored this long (default 5000). */
  cooldownMs?: number;
  /** How long a match with exclusion fragments waits for one to show (default 1500). */
  excludeWindowMs?: number;
  /** Subtracted from the frame time: the message shows this long after what it announces (default 0). */
  compensationMs?: number;
}

export interface ScreenTextEvent {
  type: BookmarkType;
  /** Milliseconds since the recording started: the frame's time minus the compensation (never below 0). */
  timeMs: number;
  keyword: string;
  /** The text of the frame it was found in. */
  text: string;
}

interface Pending {
  event: ScreenTextEvent;
  detectedAtMs: number;
  exclude: readonly string[];
}

export class ScreenTextMatcher {
  private readonly cooldownMs: number;
  private readonly excludeWindowMs: number;
  private readonly compensationMs: number;
  /** Frame time from which each type may match again. */
  private readonly coolUntil = new Map<BookmarkType, number>();
  private readonly pending = new Map<BookmarkType, Pending>();

  constructor(private readonly options: ScreenTextMatcherOptions) {
    this.cooldownMs = options.cooldownMs ?? 5000;
    this.excludeWindowMs = options.excludeWindowMs ?? 1500;
    this.compensationMs = options.compensationMs ?? 0;
  }

  /** The events this frame's text completes: confirmed waiting matches, then a new match. */
  push({ text, frameTimeMs }: ScreenTextInput): ScreenTextEvent[] {
    const events = this.settlePending(text, frameTimeMs);
    const found = this.options.keywords.find((candidate) => containsKeyword(text, candidate.keyword));
    if (!found || frameTimeMs < (this.coolUntil.get(found.type) ?? -Infinity)) return events;
    const exclude = found.exclude ?? [];
    if (exclude.some((fragment) => includesFragment(text, fragment))) return events;
    const event: ScreenTextEvent = {
      type: found.type,
      timeMs: Math.max(0, frameTimeMs - this.compensationMs),
      keyword: found.keyword,
      text,
    };
    this.coolUntil.set(found.type, frameTimeMs + this.cooldownMs);
    if (exclude.length > 0) this.pending.set(found.type, { event, detectedAtMs: frameTimeMs, exclude });
    else events.push(event);
    return events;
  }

  /** Confirms what is still waiting (no later frame can exclude it any more): at the end of a recording. */
  flush(): ScreenTextEvent[] {
    const events = [...this.pending.values()].map((pending) => pending.event);
    this.pending.clear();
    return events;
  }

  /** Forgets everything: a new recording starts afresh. */
  reset(): void {
    this.pending.clear();
    this.coolUntil.clear();
  }

  private settlePending(text: string, frameTimeMs: number): ScreenTextEvent[] {
    const confirmed: ScreenTextEvent[] = [];
    for (const [type, pending] of this.pending) {
      if (frameTimeMs - pending.detectedAtMs > this.excludeWindowMs) {
        this.pending.delete(type);
        confirmed.push(pending.event);
      } else if (pending.exclude.some((fragment) => includesFragment(text, fragment))) {
        // It was the other message after all; the type may match again at once.
        this.pending.delete(type);
        this.coolUntil.delete(type);
      }
    }
    return confirmed;
  }
}

const includesFragment = (text: string, fragment: string) => text.toLowerCase().includes(fragment.toLowerCase());
