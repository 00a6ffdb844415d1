// Rocket League end to end: the service records a synthetic capture whose picture carries the
// game's event messages at known times (ffmpeg drawtext); with a stand-in RocketLeague.exe running,
// the integration reads them from the recording's own frames and the bookmarks land at those times.
import 'reflect-metadata';
import { parseDuration } from '@keyframe/core/protocol';
import { IntegrationService, StandInGame, writeTextVideo, type DrawnText } from '@keyframe/integration-testkit';
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const message = (text: string, fromMs: number, toMs: number, size = 0.055): DrawnText => ({
  text,
  fromMs,
  toMs,
  centre: { x: 0.5, y: 0.2 },
  size,
  colour: 'white',
  outline: { colour: 'black', width: 3 },
});

// Live on-screen text recognition in the real service: long and load-sensitive, so `npm run test:long` runs it
// (KEYFRAME_LONG_TESTS=1); the recognition itself is checked on every tape by tapes.test.ts.
(process.env.KEYFRAME_LONG_TESTS === '1' ? describe : describe.skip)('vehicle-soccer end to end (long)', function () {
  this.timeout(120_000);
  let keyframe: IntegrationService;
  let folder: string;

  before(async function () {
    if (!StandInGame.supported) this.skip();
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-vehicle-soccer-'));
    const video = path.join(folder, 'match.mp4');
    await writeTextVideo(
      {
        width: 1280,
        height: 720,
        // Past the last message; the recording stops once it is read (the capture would loop the video).
        durationMs: 15_000,
        background: 'noisyBars',
        texts: [message('SHOT ON GOAL', 1500, 3500, 0.045), message('+100 GOAL', 5000, 7000), message('ASSIST', 10_000, 12_000)],
      },
      video,
    );
    keyframe = await IntegrationService.start({ integration: 'vehicleSoccer', env: () => ({ KEYFRAME_SYNTHETIC_VIDEO: video }) });
  });
  after(async () => {
    await keyframe?.stop();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('bookmarks the goal and the assist shown on screen at their times (±1 s), not the shot on goal', async () => {
    await keyframe.startGame(path.join('RocketLeague', 'RocketLeague.exe'));
    await keyframe.recordWhileActive();
    expect(await keyframe.bookmarksReach(2, 30_000)).to.deep.equal(['Goal', 'Assist']);
    const session = await keyframe.stopRecording();
    const times = session.bookmarks.map((bookmark) => parseDuration(bookmark.time)!);
    expect(times[0]).to.be.closeTo(5, 1);
    expect(times[1]).to.be.closeTo(10, 1);
    expect((await keyframe.savedBookmarks(session)).map((bookmark) => bookmark.type)).to.deep.equal(['Goal', 'Assist']);
    expect(keyframe.client.schemaViolations).to.deep.equal([]);
  });
});
