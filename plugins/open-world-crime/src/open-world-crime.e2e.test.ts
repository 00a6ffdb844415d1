// GTA V end to end: the service records a synthetic capture whose picture shows the death screen
// at known times (ffmpeg drawtext, red WASTED over a greyed, grainy scene); with a stand-in GTA5.exe
// running, the integration reads it from the recording's own frames and the Deaths land at those times.
import 'reflect-metadata';
import { parseDuration } from '@keyframe/core/protocol';
import { IntegrationService, StandInGame, writeTextVideo, type DrawnText } from '@keyframe/integration-testkit';
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const message = (text: string, fromMs: number, toMs: number): DrawnText => ({
  text,
  fromMs,
  toMs,
  centre: { x: 0.5, y: 0.5 },
  size: 0.11,
  colour: '#c8102e',
  outline: { colour: 'black', width: 4 },
});

// Live on-screen text recognition in the real service: long and load-sensitive, so `npm run test:long` runs it
// (KEYFRAME_LONG_TESTS=1); the recognition itself is checked on every tape by tapes.test.ts.
(process.env.KEYFRAME_LONG_TESTS === '1' ? describe : describe.skip)('open-world-crime end to end (long)', function () {
  this.timeout(120_000);
  let keyframe: IntegrationService;
  let folder: string;

  before(async function () {
    if (!StandInGame.supported) this.skip();
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-open-world-crime-'));
    const video = path.join(folder, 'deaths.mp4');
    await writeTextVideo(
      {
        width: 1280,
        height: 720,
        // Past the last message; the recording stops once it is read (the capture would loop the video).
        durationMs: 15_000,
        background: 'greyedBars',
        texts: [message('WASTE', 1500, 3000), message('WASTED', 5000, 8000), message('WASTED', 11_000, 14_000)],
      },
      video,
    );
    keyframe = await IntegrationService.start({ integration: 'openWorldCrime', env: () => ({ KEYFRAME_SYNTHETIC_VIDEO: video }) });
  });
  after(async () => {
    await keyframe?.stop();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('bookmarks each WASTED shown on screen at its time (±1 s), not the WASTE before them', async () => {
    await keyframe.startGame(path.join('GTAV', 'GTA5.exe'));
    await keyframe.recordWhileActive();
    expect(await keyframe.bookmarksReach(2, 30_000)).to.deep.equal(['Death', 'Death']);
    const session = await keyframe.stopRecording();
    const times = session.bookmarks.map((bookmark) => parseDuration(bookmark.time)!);
    expect(times[0]).to.be.closeTo(5, 1);
    expect(times[1]).to.be.closeTo(11, 1);
    expect((await keyframe.savedBookmarks(session)).map((bookmark) => bookmark.type)).to.deep.equal(['Death', 'Death']);
    expect(keyframe.client.schemaViolations).to.deep.equal([]);
  });
});
