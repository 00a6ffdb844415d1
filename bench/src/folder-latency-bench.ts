// Event-to-bookmark latency of a folder-watching integration: battle-royale reads the replay folders
// PUBG saves; each measured replay (one kill, inside the running recording) is written file by file
// as the game does, timed from its last file until the `State` that carries the bookmark. A file is
// read only once it has stayed unchanged for 1 s (the game writes replays piece by piece), so that
// wait bounds the figure. Baseline: a bare recursive `fs.watch` of the same folder that waits the
// same 1 s of quiet, reads the replay's info file and forwards a frame to a bare `ws` client.
import { kill, writeReplayFolder } from '@keyframe/plugin-battle-royale/replay-generator';
import { demosFolderOf } from '@keyframe/plugin-battle-royale/replay-layout';
import { IntegrationService, StandInGame } from '@keyframe/integration-testkit';
import { watch } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
// The plugin's own generator of replay folders in the game's layout (test support, not published).
import { forwardingPair } from './bare-ws.js';
import { median, msSince, type Figure } from './harness.js';

const REPLAYS = 8;
const STABLE_MS = 1000;
const PLAYER = '[KFR]Hunter';

const replay = (index: number, matchStartedAt: Date) => ({
  folder: `match.bro.official.pc-2018-31.steam.squad-fpp.eu.2026.11.24.19.00.00.bench${index}`,
  matchStartedAt,
  player: PLAYER,
  events: [kill(1000 + index * 500, 'Hunter', `Victim${index}`, false)],
});

/** A random pause, so that replays fall at every phase of the feed's 2.5 s rescan. */
const betweenReplays = () => delay(Math.random() * 2500);

export async function benchFolderLatency(): Promise<Figure> {
  if (!StandInGame.supported) throw new Error('the folder latency bench needs Linux or macOS (stand-in game process)');
  const keyframe = await IntegrationService.start({
    integration: 'battleRoyale',
    env: (temp) => ({ KEYFRAME_LOCAL_APPDATA: path.join(temp.path, 'local') }),
    // The game keeps its Demos folder once it has saved a replay: it is there when the integration starts watching.
    prepare: (temp) => mkdir(demosFolderOf(path.join(temp.path, 'local')), { recursive: true }).then(() => undefined),
  });
  try {
    const demos = demosFolderOf(path.join(keyframe.temp.path, 'local'));
    await keyframe.startGame(path.join('bin', 'TslGame.exe'));
    const startedAt = Date.parse((await keyframe.recordWhileActive()).recording!.startTime);
    await delay(2500); // the feed takes what is in the folder as its starting point
    const latencies: number[] = [];
    for (let index = 1; index <= REPLAYS; index++) {
      await betweenReplays();
      await writeReplayFolder(demos, replay(index, new Date(startedAt + 500)));
      const start = process.hrtime.bigint();
      await keyframe.bookmarksReach(index, 15_000);
      latencies.push(msSince(start));
    }
    const baseline = await bareFolderLatency(path.join(keyframe.temp.path, 'bare-demos'));
    const serviceMs = median(latencies);
    return {
      name: 'folder (battleRoyale, replay saved) event to bookmark in State',
      medianMs: serviceMs,
      baseline: `bare fs.watch + ${STABLE_MS} ms quiet, to ws`,
      baselineMedianMs: baseline,
      ratio: serviceMs / baseline,
      runs: REPLAYS,
      note: `bound by the ${STABLE_MS} ms a file must stay unchanged before it is read (both sides wait it); from the replay's last file written`,
    };
  } finally {
    await keyframe.stop();
  }
}

/** Watches `demos` recursively; after STABLE_MS without a change, reads the newest replay's info file and forwards a frame. */
async function bareFolderLatency(demos: string): Promise<number> {
  const pair = await forwardingPair();
  await mkdir(demos, { recursive: true });
  let latest = '';
  let quiet: NodeJS.Timeout | undefined;
  const watcher = watch(demos, { recursive: true }, (_event, name) => {
    if (name?.endsWith('PUBG.replayinfo')) latest = name;
    clearTimeout(quiet);
    quiet = setTimeout(() => {
      void readFile(path.join(demos, latest)).then((info) =>
        pair.forward(JSON.stringify({ method: 'State', content: { bytes: info.length } })),
      );
    }, STABLE_MS);
  });
  const latencies: number[] = [];
  for (let index = 1; index <= REPLAYS; index++) {
    await betweenReplays();
    const arrived = pair.nextFrame();
    await writeReplayFolder(demos, replay(index, new Date()));
    const start = process.hrtime.bigint();
    await arrived;
    latencies.push(msSince(start));
  }
  watcher.close();
  clearTimeout(quiet);
  pair.close();
  return median(latencies);
}
