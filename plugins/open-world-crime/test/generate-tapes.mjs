#!/usr/bin/env node
// Writes the tapes in test/data: GTA V's death screen message drawn over busy moving scenes (no
// public screenshots exist to test with), read every 500 ms. Run after `npm run build` when a
// scene changes: `node plugins/open-world-crime/test/generate-tapes.mjs`; commit the tapes and frames.
import { writeScreenTextTape } from '@keyframe/integration-testkit';
import { fileURLToPath } from 'node:url';

const DATA = fileURLToPath(new URL('./data/', import.meta.url));
const INTERVAL_MS = 500;
/** The death screen's message: big red bold capitals with a black outline, in the middle. */
const message = (text, fromMs, toMs, colour = '#c8102e') => ({
  text, fromMs, toMs, centre: { x: 0.5, y: 0.5 }, size: 0.11, colour, outline: { colour: 'black', width: 3 },
});

const tapes = {
  death: {
    description: 'WASTED shown for 3 s over moving colour bars (16:9): exactly one Death, at its first frame.',
    scene: { width: 960, height: 540, durationMs: 6000, background: 'colourBars', texts: [message('WASTED', 2000, 5000)] },
  },
  'ultrawide-deaths': {
    description: 'Two deaths 6 s apart over moving cells on a 21:9 screen: two Deaths.',
    scene: { width: 1260, height: 540, durationMs: 11_000, background: 'cells', texts: [message('WASTED', 1000, 4000), message('WASTED', 7000, 10_000)] },
  },
  'near-misses': {
    description: 'A red WASTE, a white WASTED (not the death screen), a red BUSTED and a red WASTED half hidden by an overlay: no bookmarks.',
    scene: {
      width: 960, height: 540, durationMs: 10_000, background: 'colourBars',
      texts: [message('WASTE', 500, 2500), message('WASTED', 3000, 5000, 'white'), message('BUSTED', 5500, 7000), message('WASTED', 7500, 9500)],
      covers: [{ fromMs: 7500, toMs: 9500, left: 0.5, top: 0.42, width: 0.15, height: 0.16, colour: '#303030' }],
    },
  },
  'square-screen': {
    description: 'A death on a 4:3 screen, where the message does not fit the region: no bookmarks, health says why.',
    scene: { width: 720, height: 540, durationMs: 4000, background: 'colourBars', texts: [message('WASTED', 1000, 3000)] },
  },
};

for (const [name, { description, scene }] of Object.entries(tapes)) {
  await writeScreenTextTape(`${DATA}${name}.tape.jsonl`, { integration: 'openWorldCrime', feed: 'deaths', description, scene, intervalMs: INTERVAL_MS });
  console.log(`${name}.tape.jsonl`);
}
