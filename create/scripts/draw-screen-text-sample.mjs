#!/usr/bin/env node
// Draws the screenText template's sample tape (templates/screenText/test/data): the made-up kill
// message over moving colour bars, read every 500 ms. Run after `npm run build` when the scene
// changes: `node create/scripts/draw-screen-text-sample.mjs`; commit the tape and its frames.
// The key in the header becomes the __KEY__ placeholder.
import { writeScreenTextTape } from '@keyframe/core/tapes';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const TAPE = fileURLToPath(new URL('../templates/screenText/test/data/sample.tape.jsonl', import.meta.url));
const KEY = 'sampleKey';

await writeScreenTextTape(TAPE, {
  integration: KEY,
  feed: 'kills',
  description:
    'A hand-drawn sample of the example: "ELIMINATED" shown from 1 s to 2.5 s over moving colour bars: exactly one Kill, at its first frame. '
    + 'Replace it with frames of the game (section 8 of the guide).',
  intervalMs: 500,
  scene: {
    width: 640,
    height: 360,
    durationMs: 4000,
    background: 'colourBars',
    texts: [{ text: 'ELIMINATED', fromMs: 1000, toMs: 2500, centre: { x: 0.5, y: 0.2 }, size: 0.07, colour: 'white', outline: { colour: 'black', width: 2 } }],
  },
});
await writeFile(TAPE, (await readFile(TAPE, 'utf8')).replace(`"integration":"${KEY}"`, '"integration":"__KEY__"'));
console.log(TAPE);
