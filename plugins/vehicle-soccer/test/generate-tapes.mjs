#!/usr/bin/env node
// Writes the tapes in test/data: Rocket League's event messages drawn over busy moving scenes
// (no public screenshots exist to test with), read every 500 ms. Run after `npm run build` when a
// scene changes: `node plugins/vehicle-soccer/test/generate-tapes.mjs`; commit the tapes and frames.
import { writeScreenTextTape } from '@keyframe/integration-testkit';
import { fileURLToPath } from 'node:url';

const DATA = fileURLToPath(new URL('./data/', import.meta.url));
const INTERVAL_MS = 500;
/** The game's event message: white bold capitals with a dark outline, above the centre. */
const message = (text, fromMs, toMs, size = 0.055) => ({
  text, fromMs, toMs, centre: { x: 0.5, y: 0.2 }, size, colour: 'white', outline: { colour: 'black', width: 2 },
});

const tapes = {
  goal: {
    description: 'A goal message shown for 2 s over moving colour bars (16:9): exactly one Goal, at its first frame.',
    scene: { width: 960, height: 540, durationMs: 5000, background: 'colourBars', texts: [message('+100 GOAL', 1000, 3000)] },
  },
  'ultrawide-assist-and-goal': {
    description: 'An assist, then a goal, over moving cells on a 21:9 screen: one Assist, one Goal.',
    scene: { width: 1260, height: 540, durationMs: 9000, background: 'cells', texts: [message('ASSIST', 1500, 3500), message('+100 GOAL', 6000, 8000)] },
  },
  'near-misses': {
    description: 'SHOT ON GOAL, EPIC SAVE, a goal message half hidden by an overlay, and a SHOT ON GOAL whose first frame shows only GOAL '
      + '(the exclusion window drops it): no bookmarks.',
    scene: {
      width: 960, height: 540, durationMs: 11_000, background: 'colourBars',
      texts: [
        message('SHOT ON GOAL', 500, 2500, 0.045), message('EPIC SAVE', 3000, 4500), message('+100 GOAL', 5500, 7500),
        message('SHOT ON GOAL', 8000, 10_000, 0.045),
      ],
      covers: [
        { fromMs: 5500, toMs: 7500, left: 0.40, top: 0.14, width: 0.14, height: 0.12, colour: '#303030' },
        { fromMs: 8000, toMs: 8500, left: 0.385, top: 0.16, width: 0.14, height: 0.08, colour: '#303030' },
      ],
    },
  },
  'square-screen': {
    description: 'A goal on a 4:3 screen, where the message is elsewhere: no bookmarks, health says why.',
    scene: { width: 720, height: 540, durationMs: 4000, background: 'colourBars', texts: [message('+100 GOAL', 1000, 3000)] },
  },
};

for (const [name, { description, scene }] of Object.entries(tapes)) {
  await writeScreenTextTape(`${DATA}${name}.tape.jsonl`, { integration: 'vehicleSoccer', feed: 'events', description, scene, intervalMs: INTERVAL_MS });
  console.log(`${name}.tape.jsonl`);
}
