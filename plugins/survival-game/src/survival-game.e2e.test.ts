// The survival-game integration end to end: the service detects a stand-in for RustClient.exe,
// activates the integration during a recording, and lines written to output_log.txt beside that
// executable become Death bookmarks in `State` and then in the finished session's metadata, through
// the real log tail: old lines, a half-written line, a restart that truncates the log, a replaced
// log file and bytes that are not UTF-8.
import 'reflect-metadata';
import { IntegrationService, StandInGame } from '@keyframe/integration-testkit';
import { expect } from 'chai';
import { appendFile, mkdir, readFile, rename, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { RECORDED_LOG_FILE, recordedData } from './recorded-log.js';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const logLine = (message: string) => `${new Date().toISOString()}|0x2a7c|${message}\n`;

// The live path of its feed kind runs in `npm test` through block-sandbox's (a followed log) end-to-end suite; this one runs
// under `npm run test:long` (KEYFRAME_LONG_TESTS=1). Its tapes (tapes.test.ts) stay in `npm test`.
(process.env.KEYFRAME_LONG_TESTS === '1' ? describe : describe.skip)('survival-game end to end (long)', function () {
  this.timeout(90_000);
  let keyframe: IntegrationService;
  let outputLog: string;

  before(async function () {
    recordedData.skipIfAbsent(this);
    if (!StandInGame.supported) this.skip();
    keyframe = await IntegrationService.start({
      integration: 'survivalGame',
      env: (temp) => ({ KEYFRAME_STEAM_LIBRARIES: path.join(temp.path, 'no-steam') }),
    });
    outputLog = path.join(keyframe.temp.path, 'Rust', 'output_log.txt');
    await mkdir(path.dirname(outputLog), { recursive: true });
    // Written before the game is seen: these lines, their death included, must never be bookmarked.
    await writeFile(outputLog, logLine('Connecting: 127.0.0.1:28015 (Raknet)') + logLine('You died: killed by Scientist'));
  });
  after(() => keyframe?.stop());

  it('bookmarks the deaths written to output_log.txt beside the running game during a recording', async () => {
    await keyframe.startGame(path.join('Rust', 'RustClient.exe'));
    await keyframe.recordWhileActive();
    await delay(1_500); // the tail has taken the end of the file as its starting point

    // The recorded client lines: two of them are deaths.
    await appendFile(outputLog, await readFile(recordedData.path(RECORDED_LOG_FILE)));
    await keyframe.bookmarksReach(2);

    // A line written in two pieces counts once it is complete.
    await appendFile(outputLog, '2026-03-21T05:40:00.000Z|0x2a7c|You di');
    await delay(1_500);
    expect(keyframe.client.latest('State')!.recording!.bookmarks).to.have.length(2);
    await appendFile(outputLog, 'ed: killed by Bear\n');
    await keyframe.bookmarksReach(3);

    // The game restarts and starts the log over.
    await truncate(outputLog, 0);
    await delay(1_000);
    await appendFile(outputLog, logLine('Connecting: 127.0.0.1:28015 (Raknet)') + logLine('You died: killed by Suicide'));
    await keyframe.bookmarksReach(4);

    // The log is replaced by a new file.
    await rename(outputLog, `${outputLog}.old`);
    await writeFile(outputLog, logLine('You died: killed by Wolf'));
    await keyframe.bookmarksReach(5);

    // A Latin-1 name and a line of binary garbage: the death still counts, the garbage does not.
    await appendFile(
      outputLog,
      Buffer.concat([
        Buffer.from([0x00, 0xff, 0xfe, 0x0a]),
        Buffer.from(logLine('You died: killed by J\u00fcrgen (76561198000000001)'), 'latin1'),
      ]),
    );
    expect(await keyframe.bookmarksReach(6)).to.deep.equal(Array(6).fill('Death'));

    const session = await keyframe.stopRecording();
    expect(session.bookmarks.map((bookmark) => bookmark.type)).to.deep.equal(Array(6).fill('Death'));
    expect((await keyframe.savedBookmarks(session)).map((bookmark) => bookmark.type)).to.deep.equal(Array(6).fill('Death'));
    await keyframe.client.until('State', (state) => keyframe.health(state)?.status === 'idle', 10_000);
    expect(keyframe.client.schemaViolations).to.deep.equal([]);
  });
});
