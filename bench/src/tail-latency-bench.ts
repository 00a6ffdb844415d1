// Event-to-bookmark latency of a log-tailing integration: block-sandbox follows Minecraft's
// `latest.log`; each measured death is a chat line appended to the file, timed until the `State`
// that carries its bookmark, while the service records (synthetic capture). The service's tail hears
// of the change from the file system (inotify through chokidar) and, should that be missed, stats the
// file every 250 ms. Baseline: a bare `fs.watch` on the file that reads what was appended and forwards
// each death line to a bare `ws` client.
import { IntegrationService, StandInGame } from '@keyframe/integration-testkit';
import { watch } from 'node:fs';
import { appendFile, mkdir, open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { forwardingPair } from './bare-ws.js';
import { median, msSince, type Figure } from './harness.js';

const DEATHS = 20;
const PREFIX = '[16:37:42] [Render thread/INFO]: ';
const DEATH_LINE = `${PREFIX}[System] [CHAT] Steve drowned\n`;
/** The game's Java runtime as the vanilla launcher installs it on Linux: what game detection looks for. */
const JAVA_RUNTIME = ['.minecraft', 'runtime', 'java-runtime-gamma', 'linux', 'java-runtime-gamma', 'bin', 'java'];

export async function benchTailLatency(): Promise<Figure> {
  if (!StandInGame.supported) throw new Error('the tail latency bench needs Linux or macOS (stand-in game process)');
  const keyframe = await IntegrationService.start({
    integration: 'blockSandbox',
    env: (temp) => ({
      KEYFRAME_GAME_HOME: path.join(temp.path, 'home'),
      KEYFRAME_ROAMING_APPDATA: path.join(temp.path, 'roaming'),
      KEYFRAME_LOCAL_APPDATA: path.join(temp.path, 'local'),
    }),
  });
  const log = path.join(keyframe.temp.path, 'home', '.minecraft', 'logs', 'latest.log');
  const bareLog = path.join(keyframe.temp.path, 'bare.log');
  const latencies: number[] = [];
  try {
    await mkdir(path.dirname(log), { recursive: true });
    await writeFile(log, `${PREFIX}Setting user: Steve\n`);
    await keyframe.startGame(path.join('home', ...JAVA_RUNTIME));
    await keyframe.recordWhileActive();
    await delay(1500); // the feed takes the end of the file as its starting point
    for (let count = 1; count <= DEATHS; count++) {
      await delay(200 + Math.random() * 200);
      const start = process.hrtime.bigint();
      await appendFile(log, DEATH_LINE);
      await keyframe.bookmarksReach(count, 5000);
      latencies.push(msSince(start));
    }
    await writeFile(bareLog, `${PREFIX}Setting user: Steve\n`);
    const baseline = await bareTailLatency(bareLog);
    const serviceMs = median(latencies);
    return {
      name: 'tail (blockSandbox, log line) event to bookmark in State',
      medianMs: serviceMs,
      baseline: 'bare fs.watch + read, to ws',
      baselineMedianMs: baseline,
      ratio: serviceMs / baseline,
      runs: DEATHS,
      note: `bound by the file-system notification (inotify); a missed one is caught by the 250 ms stat; p90 ${[...latencies].sort((a, b) => a - b)[Math.floor(DEATHS * 0.9)]!.toFixed(1)} ms, while recording 720p30`,
    };
  } finally {
    await keyframe.stop();
  }
}

/** Follows `log` from its end with `fs.watch`, forwarding every complete death line. */
async function bareTailLatency(log: string): Promise<number> {
  const pair = await forwardingPair();
  const file = await open(log, 'r');
  let offset = (await file.stat()).size;
  let pending = '';
  let reading = Promise.resolve();
  const readAppended = async () => {
    const { size } = await file.stat();
    if (size <= offset) return;
    const buffer = Buffer.alloc(size - offset);
    await file.read(buffer, 0, buffer.length, offset);
    offset = size;
    const lines = (pending + buffer.toString('latin1')).split('\n');
    pending = lines.pop()!;
    for (const line of lines) if (line.includes('[CHAT] Steve')) pair.forward(JSON.stringify({ method: 'State', content: { line } }));
  };
  const watcher = watch(log, () => {
    reading = reading.then(readAppended);
  });
  const latencies: number[] = [];
  for (let count = 1; count <= DEATHS; count++) {
    await delay(200 + Math.random() * 200);
    const start = process.hrtime.bigint();
    const arrived = pair.nextFrame();
    await appendFile(log, DEATH_LINE);
    await arrived;
    latencies.push(msSince(start));
  }
  watcher.close();
  await reading;
  await file.close();
  pair.close();
  return median(latencies);
}
