// Where and how the game shows its event messages, and which ones are bookmarks (reference
// implementation §8.6): "+100 GOAL" / "GOAL" → Goal, "ASSIST" → Assist, "SHOT ON GOAL" → nothing.
import type { ScreenTextMatcherOptions, ScreenTextOptions } from '@keyframe/core';

/** 21:9 monitors: 2560x1080 is 64:27 (2.37), 3440x1440 is 43:18 (2.39); both within the feed's 2 %. */
const ULTRAWIDE = 64 / 27;

/**
 * The small band above the middle where the event message appears. White bold text with a dark
 * outline: a brightness threshold keeps the letters (the outline separates them from bright
 * scenery; what crosses the band's edge is dropped by the feed). The band is placed for 16:9 and
 * 21:9, where the HUD keeps its position from the centre; 4:3 and 16:10 move it.
 */
export const EVENT_TEXT: ScreenTextOptions = {
  region: { left: 0.38, top: 0.15, width: 0.24, height: 0.1 },
  intervalMs: 250,
  preprocess: { kind: 'threshold', level: 200 },
  aspectRatios: [16 / 9, ULTRAWIDE],
};

export const EVENT_KEYWORDS: ScreenTextMatcherOptions = {
  keywords: [
    { keyword: '+100', type: 'Goal' },
    // "SHOT ON GOAL" holds "goal" too: a fragment of it in the same frame or within 1.5 s drops the match.
    { keyword: 'goal', type: 'Goal', exclude: ['shot', 'sh', 'on '] },
    { keyword: 'assist', type: 'Assist' },
  ],
  // A message stays up for about 2 s and is read 8 times: one bookmark. Goals are further apart.
  cooldownMs: 5000,
  excludeWindowMs: 1500,
  // The frame's own time is known (no screenshot delay to make up for, unlike the reference's 1 s).
  compensationMs: 0,
};
