// PUBG end to end against the running service: a recording of the game runs and stops, the game (still
// running) saves its replay afterwards, and the replay's kills and deaths land in the finished session's
// metadata at match start + offset (±0.5 s) with no other recording started. A replay saved during a
// recording lands on that recording.
import 'reflect-metadata';
import { parseDuration, type ContentItem } from '@keyframe/core/protocol';
import { IntegrationService, StandInGame } from '@keyframe/integration-testkit';
import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { demosFolderOf, replayFilePath } from './replay-layout.js';
import { kill, knock, writeReplayFolder } from './test-support/replay-generator.js';

const TOLERANCE_SECONDS = 0.5;
const PLAYER = '[KFR]Hunter';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A bookmark's time in its video, in seconds; NaN (failing every comparison) when it is no duration. */
const seconds = (time: string) => parseDuration(time) ?? Number.NaN;

/** In time order: a replay's bookmarks are added in the order its files are read. Returns the largest difference from the expected times, in seconds. */
function expectBookmarks(bookmarks: { type: string; time: string }[], expected: [string, number][]): number {
  const actual = [...bookmarks].sort((a, b) => seconds(a.time) - seconds(b.time));
  expect(actual.map((bookmark) => bookmark.type)).to.deep.equal(expected.map(([type]) => type));
  actual.forEach((bookmark, index) => {
    expect(seconds(bookmark.time), `${bookmark.type} #${index + 1}`).to.be.closeTo(expected[index]![1], TOLERANCE_SECONDS);
  });
  return Math.max(...actual.map((bookmark, index) => Math.abs(seconds(bookmark.time) - expected[index]![1])));
}

describe('battle-royale end to end', function () {
  this.timeout(120_000);
  let keyframe: IntegrationService;
  let demos: string;

  /** The running recording's start, once it has activated the integration. */
  async function recordingStart(): Promise<number> {
    const state = await keyframe.recordWhileActive();
    return Date.parse(state.recording!.startTime);
  }

  /** Stops the recording; the integration stays active while the game runs. Resolves with the finished session. */
  async function stopRecording(): Promise<ContentItem> {
    const session = await keyframe.stopRecording();
    expect(keyframe.health()?.status).to.equal('active');
    return session;
  }

  before(async function () {
    if (!StandInGame.supported) this.skip();
    keyframe = await IntegrationService.start({
      integration: 'battleRoyale',
      env: (temp) => ({ KEYFRAME_LOCAL_APPDATA: path.join(temp.path, 'local') }),
    });
    demos = demosFolderOf(path.join(keyframe.temp.path, 'local'));
  });
  after(() => keyframe?.stop());

  it('bookmarks a replay saved after the recording stopped in the finished session, and a replay saved during a recording on it', async () => {
    await keyframe.startGame(path.join('bin', 'TslGame.exe'));
    const recordedFrom = await recordingStart();
    await delay(4000); // past the last of its bookmarks (3.0 s)
    const first = await stopRecording();
    expect(await keyframe.savedBookmarks(first)).to.deep.equal([]);

    // The match started 30 s before the recording and ended after it stopped: the game saves its replay now.
    await writeReplayFolder(demos, {
      folder: 'match.bro.official.pc-2018-31.steam.squad-fpp.eu.2026.11.24.19.00.00.e2e1',
      matchStartedAt: new Date(recordedFrom - 30_000),
      player: PLAYER,
      events: [
        knock(20_000, 'Hunter', 'BeforeTheRecording'),
        knock(31_200, '[kfr]hunter', 'Victim'),
        kill(31_900, 'Hunter', 'Victim', true),
        kill(32_500, 'Hunter', 'Instant', false),
        knock(33_000, 'Enemy', PLAYER),
        kill(33_400, 'Enemy', PLAYER, true),
      ],
    });
    // A replay the game could not finish: skipped, never a bookmark.
    await writeReplayFolder(demos, {
      folder: 'match.corrupt',
      matchStartedAt: new Date(recordedFrom),
      player: PLAYER,
      events: [knock(1000, 'Hunter', 'X')],
    });
    await writeFile(replayFilePath(demos, 'match.corrupt/PUBG.replayinfo'), Buffer.from([0x7f, 0xe2, 0xa2, 0x1c, 0x7b]));

    // No recording runs: the integration, active while the game runs, reads the replay as it is saved.
    const savedFirstAt = Date.now();
    const withBookmarks = await keyframe.client.until(
      'State',
      (state) => state.content.some((item) => item.id === first.id && item.bookmarks.length >= 3),
      15_000,
    );
    const finishedDelayMs = Date.now() - savedFirstAt;
    expect(withBookmarks.recording).to.equal(null);
    expectBookmarks(withBookmarks.content.find((item) => item.id === first.id)!.bookmarks, [
      ['Kill', 1.2],
      ['Kill', 2.5],
      ['Death', 3.0],
    ]);
    const finishedError = expectBookmarks(await keyframe.savedBookmarks(first), [
      ['Kill', 1.2],
      ['Kill', 2.5],
      ['Death', 3.0],
    ]);

    // A match inside the next recording: its replay reaches the feed and the bookmark lands on the recording.
    const startedAt = await recordingStart();
    await delay(2500);
    const savedAt = Date.now();
    await writeReplayFolder(demos, {
      folder: 'match.bro.official.pc-2018-31.steam.squad-fpp.eu.2026.11.24.19.10.00.e2e2',
      matchStartedAt: new Date(startedAt + 500),
      player: PLAYER,
      events: [kill(1500, 'Hunter', 'Someone', false)],
    });
    await keyframe.bookmarksReach(1);
    const liveDelayMs = Date.now() - savedAt;
    expectBookmarks(keyframe.client.latest('State')!.recording!.bookmarks, [['Kill', 2.0]]);
    const second = await stopRecording();

    const liveError = expectBookmarks(await keyframe.savedBookmarks(second), [['Kill', 2.0]]);
    expect(await keyframe.savedBookmarks(first)).to.have.length(3);
    expect(keyframe.client.schemaViolations).to.deep.equal([]);
    console.log(
      `      replay after the recording: bookmarked ${finishedDelayMs} ms after it was saved, off by at most ${finishedError.toFixed(3)} s; ` +
        `replay during a recording: bookmarked ${liveDelayMs} ms after it was saved, off by ${liveError.toFixed(3)} s`,
    );
  });
});
