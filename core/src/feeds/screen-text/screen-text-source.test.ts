// The live screenText feed on drawn frames with real tesseract, and its tape: the frames it read are
// kept as PNG beside the tape, and the replay reads them again to the same text.
import 'reflect-metadata';
import { expect } from 'chai';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { inject, injectable } from 'tsyringe';
import type { ScreenFrameSource } from './screen-frames.js';
import { decodePng } from './png.js';
import type { ScreenFrame } from '../../sdk/rgb-image.js';
import type { ObservedInput } from '../../sdk/feed-observer.js';
import { writeTextFrames, type DrawnText } from './text-frames.js';
import { SharedTextRecognizer } from './text-recognizer.js';
import type { GameIntegration } from '../../sdk/game-integration.js';
import { Feeds } from '../../sdk/tokens.js';
import { readTape } from '../tape/tape-format.js';
import { playTape } from '../../integrations/tape-player.js';
import { TapeWriter } from '../tape/tape-writer.js';
import type { Feeds as FeedsService, ScreenTextInput, ScreenTextOptions } from '../../sdk/feed-types.js';
import { LiveFeeds } from '../live/live-feeds.js';
import { MemoryLogger } from '../live/memory-logger.js';
import { waitFor } from '../live/wait-for.js';

const OPTIONS: ScreenTextOptions = {
  region: { left: 0.38, top: 0.15, width: 0.24, height: 0.1 },
  intervalMs: 20,
  preprocess: { kind: 'threshold', level: 200 },
  aspectRatios: [16 / 9],
};
const message = (text: string, fromMs: number, toMs: number): DrawnText => ({
  text,
  fromMs,
  toMs,
  centre: { x: 0.5, y: 0.2 },
  size: 0.055,
  colour: 'white',
  outline: { colour: 'black', width: 4 },
});

class SettableFrames implements ScreenFrameSource {
  current: ScreenFrame | undefined;
  latest(): ScreenFrame | undefined {
    return this.current;
  }
}

describe('screenText feed (live, real tesseract)', function () {
  this.timeout(60_000);
  let folder: string;
  let frames: ScreenFrame[];
  let squareFrame: ScreenFrame;

  before(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-screen-text-'));
    const scene = {
      width: 1920,
      height: 1080,
      durationMs: 1500,
      background: 'noisyBars' as const,
      texts: [message('+100 GOAL', 500, 1000), message('ASSIST', 1000, 1500)],
    };
    const written = await writeTextFrames(scene, path.join(folder, 'wide'), 500);
    frames = await Promise.all(
      written.map(async ({ frame, timeMs }) => ({ ...decodePng(await readFile(path.join(folder, 'wide', frame))), timeMs })),
    );
    const [square] = await writeTextFrames({ ...scene, width: 1440, durationMs: 500 }, path.join(folder, 'square'), 500);
    squareFrame = { ...decodePng(await readFile(path.join(folder, 'square', square!.frame))), timeMs: 1500 };
  });
  after(() => rm(folder, { recursive: true, force: true }));

  it('reads each new frame once, skips ticks while reading, reports the aspect ratio, and tapes the frames it read', async () => {
    const source = new SettableFrames();
    const recognizer = new SharedTextRecognizer();
    const health: (string | undefined)[] = [];
    const tapeFile = path.join(folder, 'live.tape.jsonl');
    const writer = new TapeWriter(tapeFile, { integration: 'screenGame' });
    const feeds = new LiveFeeds({
      logger: new MemoryLogger(),
      observe: (entry) => writer.write(entry),
      keepsFrames: true,
      screenText: { frames: () => source, recognizer, degraded: (reason) => health.push(reason) },
    });
    const inputs: ScreenTextInput[] = [];
    const feed = feeds.screenText('hud', OPTIONS);
    feed.onInput((input) => {
      inputs.push(input);
    });
    await feed.ready;
    await delay(100);
    expect(recognizer.running).to.equal(false); // no frame yet, no worker

    for (const [index, frame] of frames.entries()) {
      source.current = frame;
      await waitFor(() => inputs.length === index + 1, `input ${index + 1}`, 10_000);
    }
    await delay(200); // the same frame is never read twice
    expect(inputs.map((input) => [input.text, input.frameTimeMs]).slice(1)).to.deep.equal([
      ['+100 GOAL', 500],
      ['ASSIST', 1000],
    ]);
    expect(inputs).to.have.length(3);

    source.current = squareFrame;
    await waitFor(() => health.length > 0, 'the aspect ratio to be reported');
    expect(health[0]).to.contain('the picture is 1440x1080 (4:3)');
    expect(inputs).to.have.length(3); // nothing read from it
    source.current = frames[1];
    await waitFor(() => health.length === 2, 'the report to be cleared');
    expect(health[1]).to.equal(undefined);

    await feeds.closeAll();
    expect(recognizer.running).to.equal(false);

    // The tape: one line per frame read, its PNG beside the tape, read again on replay.
    const tape = await readTape(tapeFile);
    expect(tape.entries).to.have.length(4);
    expect(await readdir(path.join(folder, 'live.files', 'hud'))).to.have.length(3); // frame 500 read twice, kept once
    const replayed: ScreenTextInput[] = [];
    @injectable()
    class Reader implements GameIntegration {
      constructor(@inject(Feeds) private readonly feeds: FeedsService) {}
      async activate(): Promise<void> {
        this.feeds.screenText('hud', OPTIONS).onInput((input) => {
          replayed.push(input);
        });
      }
      async deactivate(): Promise<void> {}
    }
    const playback = await playTape(tapeFile, { integrationClass: Reader, key: 'screenGame', defaultGame: { name: 'Screen Game' } });
    expect(playback.unconsumed).to.equal(0);
    expect(replayed.map(({ text, frameTimeMs }) => ({ text, frameTimeMs }))).to.deep.equal(
      inputs.map(({ text, frameTimeMs }) => ({ text, frameTimeMs })),
    );
  });

  it('never queues frames: ticks that come while a frame is read are skipped', async () => {
    const source = new SettableFrames();
    const recognizer = new SharedTextRecognizer();
    const feeds = new LiveFeeds({
      logger: new MemoryLogger(),
      screenText: { frames: () => source, recognizer, degraded: () => undefined },
    });
    const inputs: ScreenTextInput[] = [];
    const feed = feeds.screenText('hud', { ...OPTIONS, intervalMs: 1 });
    feed.onInput((input) => {
      inputs.push(input);
    });
    // A new frame on every tick, far more than can be read; two messages in turn, so that every frame
    // read needs a recognition (the same pixels as the last read are not recognised again).
    let next = 0;
    const changer = setInterval(() => {
      source.current = { ...frames[1 + (next % 2)]!, timeMs: next++ };
    }, 1);
    await delay(1500);
    // A busy machine may not have finished the first recognition yet: frames keep coming until it has.
    for (let waited = 0; inputs.length === 0 && waited < 10_000; waited += 50) await delay(50);
    clearInterval(changer);
    await feeds.closeAll();
    expect(next).to.be.above(200);
    expect(inputs.length).to.be.within(1, next / 4);
    expect(inputs.every((input) => ['+100 GOAL', 'ASSIST'].includes(input.text))).to.equal(true);
  });

  it('gives an observer that keeps no frames (the health watch) the inputs alone, without copying the frames', async () => {
    // A black picture: no text pixels in the band, so it is read without recognition.
    const source = new SettableFrames();
    source.current = { width: 1920, height: 1080, data: Buffer.alloc(1920 * 1080 * 3), timeMs: 0 };
    const observed: ObservedInput[] = [];
    const feeds = new LiveFeeds({
      logger: new MemoryLogger(),
      observe: (entry) => observed.push(entry),
      screenText: { frames: () => source, recognizer: new SharedTextRecognizer(), degraded: () => undefined },
    });
    const feed = feeds.screenText('hud', OPTIONS);
    feed.onInput(() => undefined);
    await waitFor(() => observed.length === 1, 'the black frame to be read');
    await feeds.closeAll();
    expect(observed[0]!.input).to.deep.equal({ text: '', confidence: 0, frameTimeMs: 0 });
    expect(observed[0]!.frame).to.equal(undefined);
  });

  it("cannot open without the service's recordings, and says why", async () => {
    const logger = new MemoryLogger();
    const feed = new LiveFeeds({ logger }).screenText('hud', OPTIONS);
    await feed.ready.then(
      () => expect.fail('ready must reject'),
      (error: Error) =>
        expect(error.message).to.equal(
          'screenText feed "hud" has no frames to read here: on-screen text is read from the service\'s recordings',
        ),
    );
    expect(logger.messages('error')).to.have.length(1);
    expect(() => new LiveFeeds({ logger }).screenText('bad', { ...OPTIONS, intervalMs: -1 })).to.throw('intervalMs -1 must be above 0');
  });
});
