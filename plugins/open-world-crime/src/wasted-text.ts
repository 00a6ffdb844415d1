// Where and how the game shows the death screen's message, and what counts (reference
// implementation §8.7): "WASTED" → Death. "BUSTED" (arrested) and a cut-off "WASTE" do not.
import type { ScreenTextMatcherOptions, ScreenTextOptions } from '@keyframe/core';

/** 21:9 monitors: 2560x1080 is 64:27 (2.37), 3440x1440 is 43:18 (2.39); both within the feed's 2 %. */
const ULTRAWIDE = 64 / 27;

/**
 * The middle of the screen, where the big red WASTED appears over the greyed-out scene. Colour
 * keying on its red keeps the letters and nothing of a grey picture; a threshold would take every
 * bright patch of the scene and none of the (dark) red. Tolerance 60 allows for video compression.
 */
export const WASTED_TEXT: ScreenTextOptions = {
  region: { left: 0.35, top: 0.4, width: 0.3, height: 0.2 },
  intervalMs: 200,
  preprocess: { kind: 'colourKey', colour: '#c8102e', tolerance: 60 },
  aspectRatios: [16 / 9, ULTRAWIDE],
};

export const WASTED_KEYWORDS: ScreenTextMatcherOptions = {
  // Six letters: one OCR error is forgiven (VASTED), two are not (BUSTED).
  keywords: [{ keyword: 'WASTED', type: 'Death' }],
  // The death screen stays up for several seconds; respawning takes longer than this.
  cooldownMs: 3000,
  // The frame's own time is known (no screenshot delay to make up for, unlike the reference's 1 s).
  compensationMs: 0,
};
