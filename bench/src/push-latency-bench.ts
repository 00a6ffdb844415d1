// Event-to-bookmark latency of an httpPush integration: from a game's POST on port 1340 to the
// bookmark at the client, with the real service recording (synthetic capture) and the tactical-shooter
// integration active. The client asks for Incremental State as Keyframe's UI does (the bookmark arrives in
// a StatePatch); a second figure has a client that takes SPEC's full State. Baseline: a bare HTTP server
// that forwards each POST to a bare `ws` client, the same two loopback hops with no service in between.
import { postAsGame, readPushToken, withPushToken } from '@keyframe/core/game-push';
import { ProtocolClient, ServiceProcess, createTempFolder } from '@keyframe/integration-testkit';
import { untilPatched } from '@keyframe/test';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFile, mkdir } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { forwardingPair } from './bare-ws.js';
import { median, msSince, type Figure } from './harness.js';

const PUSHES = 40;
const ME = '76561198000000001';

const payload = (kills: number) =>
  JSON.stringify({
    provider: { name: 'Counter-Strike: Global Offensive', appid: 730, version: 14120, steamid: ME, timestamp: 1763800000 },
    map: { mode: 'competitive', name: 'de_mirage', phase: 'live', round: 1 },
    player: { steamid: ME, name: 'Me', activity: 'playing', match_stats: { kills, assists: 0, deaths: 0, mvps: 0, score: 0 } },
  });

/** As CS2 posts with the service's config: node:http (no browser headers), the data folder's token in the body. */
const postAsCs2 = (token: string, body: string) => postAsGame(1340, withPushToken(body, token));

/** Milliseconds from each push to the bookmark it makes at the client; `bookmarks(count)` resolves when the client holds `count`. */
async function pushLatencies(token: string, kills: number[], bookmarks: (count: number) => Promise<unknown>): Promise<number[]> {
  const latencies: number[] = [];
  for (const count of kills) {
    const start = process.hrtime.bigint();
    const arrived = bookmarks(count);
    await postAsCs2(token, payload(count));
    await arrived;
    latencies.push(msSince(start));
    await betweenPushes();
  }
  return latencies;
}

// Pushes arrive at most every 200 ms from the game (throttle 0.2): leave the state burst window (the bare
// forward pauses the same, so both are measured from the same idle start).
const betweenPushes = () => new Promise((resolve) => setTimeout(resolve, 60));

const p90 = (latencies: number[]) => [...latencies].sort((a, b) => a - b)[Math.floor(latencies.length * 0.9)]!.toFixed(2);

export async function benchPushLatency(): Promise<Figure[]> {
  const temp = await createTempFolder('keyframe-bench-');
  const executable = path.join(temp.path, 'bin', 'cs2');
  await mkdir(path.dirname(executable), { recursive: true });
  await copyFile('/bin/sleep', executable);
  const game = spawn(executable, ['600'], { stdio: 'ignore' });
  const service = await ServiceProcess.start({
    dataFolder: path.join(temp.path, 'data'),
    legacyPort: 'off',
    gameProcessRoot: temp.path,
    env: { KEYFRAME_CAPTURE: 'synthetic', KEYFRAME_STEAM_LIBRARIES: path.join(temp.path, 'steam') },
  });
  const client = await ProtocolClient.connect(`${service.url}?dialect=spec&state=patch`);
  let fullStateClient: ProtocolClient | undefined;
  try {
    await client.handshake();
    client.send('UpdateSettings', { resolution: '720p', frameRate: 30, contentFolder: path.join(temp.path, 'videos') });
    await client.next('Settings');
    await untilPatched(client, (state) => /is running/.test(state.integrations.tacticalShooter?.message ?? ''), 15_000);
    client.send('StartRecording');
    await untilPatched(client, (state) => state.integrations.tacticalShooter?.status === 'active', 30_000);
    const token = await readPushToken(path.join(temp.path, 'data'));
    await postAsCs2(token, payload(0));
    await new Promise((resolve) => setTimeout(resolve, 200));

    const kills = (from: number) => Array.from({ length: PUSHES }, (_, index) => from + index);
    const patched = await pushLatencies(token, kills(1), (count) =>
      untilPatched(client, (state) => state.recording?.bookmarks.length === count, 5000),
    );
    // The same recording, to a client that takes SPEC's full State (it replaces the first).
    fullStateClient = await ProtocolClient.connect(service.url);
    await fullStateClient.handshake();
    const full = fullStateClient;
    const fullState = await pushLatencies(token, kills(PUSHES + 1), (count) =>
      full.next('State', (state) => state.recording?.bookmarks.length === count, 5000),
    );
    // While the same recording runs, so that ffmpeg's encode weighs on both figures alike.
    const baseline = await bareForwardingLatency(PUSHES);
    full.send('StopRecording');
    await full.until('State', (state) => state.recording === null, 30_000);
    const figure = (latencies: number[], name: string, note: string): Figure => ({
      name,
      medianMs: median(latencies),
      baseline: 'bare HTTP to ws forward',
      baselineMedianMs: baseline,
      ratio: median(latencies) / baseline,
      runs: PUSHES,
      note: `${note}; p90 ${p90(latencies)} ms, while recording 720p30`,
    });
    return [
      figure(
        patched,
        'httpPush event to bookmark at the client (StatePatch)',
        'target under 20 ms median, a ?state=patch client as the UI',
      ),
      figure(fullState, 'httpPush event to bookmark in a full State', "a client that takes SPEC's full State"),
    ];
  } finally {
    await fullStateClient?.close();
    await client.close();
    await service.stop();
    game.kill('SIGKILL');
    await temp.remove();
  }
}

async function bareForwardingLatency(pushes: number): Promise<number> {
  const pair = await forwardingPair();
  const http = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      response.end();
      pair.forward(JSON.stringify({ method: 'State', content: { body: Buffer.concat(chunks).toString() } }));
    });
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const port = (http.address() as AddressInfo).port;
  const latencies: number[] = [];
  for (let index = 1; index <= pushes; index++) {
    const start = process.hrtime.bigint();
    const arrived = pair.nextFrame();
    // The same poster as the game's above (node:http): fetch's client costs more, and more unevenly.
    await postAsGame(port, payload(index));
    await arrived;
    latencies.push(msSince(start));
    await betweenPushes();
  }
  pair.close();
  http.close();
  return median(latencies);
}
