import { expect } from 'chai';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ScreenTextOptions } from '../../sdk/feed-types.js';
import { decodePng } from './png.js';
import type { ScreenFrame } from '../../sdk/rgb-image.js';
import { ScreenTextReader } from './screen-text-reader.js';
import { writeTextFrames, type DrawnText, type TextBackground } from './text-frames.js';
import { SharedTextRecognizer, type RecognizerLease } from './text-recognizer.js';

const EVENT_REGION = { left: 0.38, top: 0.15, width: 0.24, height: 0.1 };
const CENTRE_REGION = { left: 0.35, top: 0.4, width: 0.3, height: 0.2 };
const whiteText = (text: string): DrawnText => ({
  text,
  fromMs: 0,
  toMs: 60_000,
  centre: { x: 0.5, y: 0.2 },
  size: 0.055,
  colour: 'white',
  outline: { colour: 'black', width: 4 },
});
const redText = (text: string): DrawnText => ({
  text,
  fromMs: 0,
  toMs: 60_000,
  centre: { x: 0.5, y: 0.5 },
  size: 0.11,
  colour: '#c8102e',
  outline: { colour: 'black', width: 5 },
});

describe('ScreenTextReader (real tesseract on drawn frames)', function () {
  this.timeout(60_000);
  let folder: string;
  let recognizer: SharedTextRecognizer;
  let lease: RecognizerLease;

  before(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-ocr-'));
    recognizer = new SharedTextRecognizer();
    lease = recognizer.lease();
  });
  after(async () => {
    await lease.release();
    await rm(folder, { recursive: true, force: true });
  });

  let scene = 0;
  async function frameOf(width: number, height: number, background: TextBackground, text: DrawnText): Promise<ScreenFrame> {
    const sceneFolder = path.join(folder, String(scene++));
    const [written] = await writeTextFrames({ width, height, durationMs: 500, background, texts: [text] }, sceneFolder, 500);
    return { ...decodePng(await readFile(path.join(sceneFolder, written!.frame))), timeMs: 1250 };
  }
  const read = async (options: ScreenTextOptions, frame: ScreenFrame) => new ScreenTextReader('hud', options, lease).read(frame);

  it('reads white outlined text over moving colour bars and grain by threshold, with the frame time', async () => {
    const options: ScreenTextOptions = { region: EVENT_REGION, intervalMs: 250, preprocess: { kind: 'threshold', level: 200 } };
    for (const background of ['colourBars', 'noisyBars', 'cells'] as const) {
      const reading = await read(options, await frameOf(1920, 1080, background, whiteText('+100 GOAL')));
      expect(reading, background).to.deep.include({ kind: 'read' });
      if (reading.kind !== 'read') continue;
      expect(reading.input.text, background).to.equal('+100 GOAL');
      expect(reading.input.confidence, background).to.be.above(80);
      expect(reading.input.frameTimeMs).to.equal(1250);
    }
  });

  it('reads red text by colour key, where a threshold would see the grey scene', async () => {
    const frame = await frameOf(1920, 1080, 'greyedBars', redText('WASTED'));
    const keyed = await read(
      { region: CENTRE_REGION, intervalMs: 200, preprocess: { kind: 'colourKey', colour: '#c8102e', tolerance: 60 } },
      frame,
    );
    expect(keyed.kind === 'read' && keyed.input.text).to.equal('WASTED');
    const thresholded = await read({ region: CENTRE_REGION, intervalMs: 200, preprocess: { kind: 'threshold', level: 180 } }, frame);
    expect(thresholded.kind === 'read' && thresholded.input.text).to.not.equal('WASTED');
  });

  it('reads the region of a 21:9 picture too, and refuses a 4:3 one when only 16:9 and 21:9 are listed', async () => {
    const options: ScreenTextOptions = {
      region: EVENT_REGION,
      intervalMs: 250,
      preprocess: { kind: 'threshold', level: 200 },
      aspectRatios: [16 / 9, 64 / 27],
    };
    const wide = await read(options, await frameOf(2560, 1080, 'noisyBars', whiteText('ASSIST')));
    expect(wide.kind === 'read' && wide.input.text).to.equal('ASSIST');
    const square = await read(options, await frameOf(1440, 1080, 'noisyBars', whiteText('ASSIST')));
    expect(square).to.deep.equal({
      kind: 'unsupportedAspect',
      reason:
        'On-screen text is not read: the picture is 1440x1080 (4:3), and the text region of screenText feed "hud" is only known for 16:9, 21:9. Play at one of those aspect ratios.',
    });
  });

  it('recognises the same region pixels once: a later frame with the same text region gets the same reading', async () => {
    const options: ScreenTextOptions = { region: EVENT_REGION, intervalMs: 250, preprocess: { kind: 'threshold', level: 200 } };
    let recognitions = 0;
    const counting = { recognize: (image: Buffer) => ((recognitions += 1), lease.recognize(image)) };
    const reader = new ScreenTextReader('hud', options, counting);
    const frame = await frameOf(1920, 1080, 'colourBars', whiteText('ASSIST'));
    const first = await reader.read(frame);
    const again = await reader.read({ ...frame, timeMs: 1500 });
    expect(recognitions).to.equal(1);
    if (first.kind !== 'read' || again.kind !== 'read') return expect.fail('both frames must be read');
    expect(first.input.text).to.equal('ASSIST');
    expect(again.input).to.deep.equal({ ...first.input, frameTimeMs: 1500 });
  });

  it('takes the pixels it reads before it returns: the frame buffer may be reused at once', async () => {
    const options: ScreenTextOptions = { region: EVENT_REGION, intervalMs: 250, preprocess: { kind: 'threshold', level: 200 } };
    const frame = await frameOf(1920, 1080, 'colourBars', whiteText('ASSIST'));
    const reading = new ScreenTextReader('hud', options, lease).read(frame);
    frame.data.fill(0); // the next frame of the stream overwrites the buffer
    const read = await reading;
    expect(read.kind === 'read' && read.input.text).to.equal('ASSIST');
  });

  it('refuses options that cannot work, when the feed is made', () => {
    const preprocess = { kind: 'threshold', level: 200 } as const;
    expect(
      () => new ScreenTextReader('hud', { region: { left: 0.9, top: 0, width: 0.2, height: 0.1 }, intervalMs: 250, preprocess }, lease),
    ).to.throw('screenText feed "hud": region {"left":0.9,"top":0,"width":0.2,"height":0.1} is not a part of the frame (fractions 0–1)');
    expect(() => new ScreenTextReader('hud', { region: EVENT_REGION, intervalMs: 0, preprocess }, lease)).to.throw(
      'intervalMs 0 must be above 0',
    );
    expect(
      () =>
        new ScreenTextReader(
          'hud',
          { region: EVENT_REGION, intervalMs: 250, preprocess: { kind: 'colourKey', colour: 'red', tolerance: 40 } },
          lease,
        ),
    ).to.throw('colour "red" is not a #rrggbb colour');
  });
});
