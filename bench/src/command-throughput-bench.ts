// Command throughput: a batch of commands sent at once over one WebSocket to the real service, timed
// until every reply has arrived, against a bare `ws` server answering each frame with the same reply.
// The command is `ApplyClipPreset` `custom`, the cheapest command with a reply event (`Settings`);
// `ping` is a bare heartbeat frame, not a command (protocol-gaps §3).
import { ServiceProcess, createTempFolder } from '@keyframe/integration-testkit';
import { once } from 'node:events';
import { WebSocket } from 'ws';
import { echoServer } from './bare-ws.js';
import { measure, type Figure } from './harness.js';

const BATCH = 2000;
const RUNS = 7;
const COMMAND = JSON.stringify({ Method: 'ApplyClipPreset', Parameters: { preset: 'custom' } });

/** Opens a client; each call sends `BATCH` commands at once and resolves when as many replies have arrived. */
async function batchSender(url: string): Promise<{ send: () => Promise<void>; lastReply: () => string; close: () => void }> {
  const socket = new WebSocket(url);
  await once(socket, 'open');
  let expected = 0;
  let last = '';
  let done: () => void = () => undefined;
  socket.on('message', (data) => {
    last = data.toString();
    if (--expected === 0) done();
  });
  return {
    send: () =>
      new Promise<void>((resolve) => {
        expected = BATCH;
        done = resolve;
        for (let index = 0; index < BATCH; index++) socket.send(COMMAND);
      }),
    lastReply: () => last,
    close: () => socket.terminate(),
  };
}

export async function benchCommandThroughput(): Promise<Figure> {
  const temp = await createTempFolder('keyframe-bench-');
  const service = await ServiceProcess.start({ dataFolder: temp.path, legacyPort: 'off' });
  try {
    const client = await batchSender(service.url);
    const serviceMs = await measure(client.send, RUNS, 1);
    const reply = client.lastReply();
    client.close();
    if (!reply.startsWith('{"method":"Settings"')) throw new Error(`ApplyClipPreset was answered with ${reply.slice(0, 80)}`);
    const echo = await echoServer([reply]);
    try {
      const bare = await batchSender(echo.url);
      const baselineMs = await measure(bare.send, RUNS, 1);
      bare.close();
      const perSecond = (ms: number) => Math.round(BATCH / (ms / 1000)).toLocaleString('en');
      return {
        name: `command throughput, ${BATCH} ApplyClipPreset sent at once`,
        medianMs: serviceMs,
        baseline: 'bare ws echo of the same reply',
        baselineMedianMs: baselineMs,
        ratio: serviceMs / baselineMs,
        runs: RUNS,
        note:
          `${perSecond(serviceMs)} commands/s answered (bare ws ${perSecond(baselineMs)}/s); each reply a ${(Buffer.byteLength(reply) / 1024).toFixed(1)} KiB Settings frame; ` +
          'includes parsing, validating and logging each command and merging the settings (the file write is coalesced)',
      };
    } finally {
      await echo.close();
    }
  } finally {
    await service.stop();
    await temp.remove();
  }
}
