// Event-to-bookmark latency of an httpPush integration: from a game's POST on port 1340 to the
// `State` that carries the bookmark, with the real service recording (synthetic capture) and the
// tactical-shooter integration active. Baseline: a bare HTTP server that forwards each POST to a
// bare `ws` client, the same two loopback hops with no service in between.
import { postAsGame, readPushToken, withPushToken } from '@keyframe/core/game-push';
import { ProtocolClient, ServiceProcess, createTempFolder } from '@keyframe/integration-testkit';
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

const post = (url: string, body: string) => fetch(url, { method: 'POST', body }).then((response) => response.arrayBuffer());
/** As CS2 posts with the service's config: node:http (no browser headers), the data folder's token in the body. */
const postAsCs2 = (token: string, body: string) => postAsGame(1340, withPushToken(body, token));

export async function benchPushLatency(): Promise<Figure> {
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
  const client = await ProtocolClient.connect(service.url);
  try {
    await client.handshake();
    client.send('UpdateSettings', { resolution: '720p', frameRate: 30, contentFolder: path.join(temp.path, 'videos') });
    await client.next('Settings');
    await client.until('State', (state) => /is running/.test(state.integrations.tacticalShooter?.message ?? ''), 15_000);
    client.send('StartRecording');
    await client.until('State', (state) => state.integrations.tacticalShooter?.status === 'active', 30_000);
    const token = await readPushToken(path.join(temp.path, 'data'));
    await postAsCs2(token, payload(0));
    await new Promise((resolve) => setTimeout(resolve, 200));

    const latencies: number[] = [];
    for (let kills = 1; kills <= PUSHES; kills++) {
      const start = process.hrtime.bigint();
      const arrived = client.next('State', (state) => state.recording?.bookmarks.length === kills, 5000);
      await postAsCs2(token, payload(kills));
      await arrived;
      latencies.push(msSince(start));
      // Pushes arrive at most every 200 ms from the game (throttle 0.2): leave the state burst window.
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    client.send('StopRecording');
    await client.until('State', (state) => state.recording === null, 30_000);
    const baseline = await bareForwardingLatency(PUSHES);
    const serviceMs = median(latencies);
    return {
      name: 'httpPush event to bookmark in State',
      medianMs: serviceMs,
      baseline: 'bare HTTP to ws forward',
      baselineMedianMs: baseline,
      ratio: serviceMs / baseline,
      runs: PUSHES,
      note: `target under 20 ms median; p90 ${[...latencies].sort((a, b) => a - b)[Math.floor(PUSHES * 0.9)]!.toFixed(2)} ms, while recording 720p30`,
    };
  } finally {
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
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/`;
  const latencies: number[] = [];
  for (let index = 1; index <= pushes; index++) {
    const start = process.hrtime.bigint();
    const arrived = pair.nextFrame();
    await post(url, payload(index));
    await arrived;
    latencies.push(msSince(start));
  }
  pair.close();
  http.close();
  return median(latencies);
}
