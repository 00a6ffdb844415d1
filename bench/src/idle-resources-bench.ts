// The service at rest: every plugin discovered, a frontend connected, nothing recording. After
// start-up settles, its CPU and resident memory over a 20 s window. Baselines: memory against an
// empty Node process sampled in the same window; CPU as a share of one core (an empty Node process
// uses next to none, so a ratio against it says nothing; its figure is in the note).
import { ProtocolClient, ServiceProcess, createTempFolder } from '@keyframe/integration-testkit';
import { setTimeout as delay } from 'node:timers/promises';
import type { Figure } from './harness.js';
import { processUse, startEmptyNode } from './process-use.js';

const SETTLE_MS = 10_000;
const WINDOW_MS = 20_000;

export async function benchIdleResources(): Promise<Figure[]> {
  const temp = await createTempFolder('keyframe-bench-');
  const service = await ServiceProcess.start({ dataFolder: temp.path, legacyPort: 'off' });
  const client = await ProtocolClient.connect(service.url);
  const empty = await startEmptyNode();
  try {
    const { state } = await client.handshake();
    await delay(SETTLE_MS);
    const [serviceUse, emptyUse] = await processUse([service.child.pid!, empty.pid], WINDOW_MS);
    const integrations = Object.keys(state.integrations).length;
    const samples = WINDOW_MS / 1000;
    return [
      {
        name: 'service CPU idle (connected, not recording)',
        medianMs: serviceUse!.cpuMsPerSecond,
        unit: 'ms/s',
        baseline: 'one core',
        baselineMedianMs: 1000,
        ratio: serviceUse!.cpuMsPerSecond / 1000,
        runs: 1,
        note: `${(serviceUse!.cpuMsPerSecond / 10).toFixed(2)}% of one core over ${samples} s, ${integrations} integrations enabled (game detection, feeds idle); an empty Node process ${emptyUse!.cpuMsPerSecond.toFixed(2)} ms/s`,
      },
      {
        name: 'service RSS idle (connected, not recording)',
        medianMs: serviceUse!.rssMiB,
        unit: 'MiB',
        baseline: 'empty Node process',
        baselineMedianMs: emptyUse!.rssMiB,
        ratio: serviceUse!.rssMiB / emptyUse!.rssMiB,
        runs: samples,
        note: `median of ${samples} samples, ${SETTLE_MS / 1000} s after the first NewConnection answer; empty library`,
      },
    ];
  } finally {
    await empty.stop();
    await client.close();
    await service.stop();
    await temp.remove();
  }
}
