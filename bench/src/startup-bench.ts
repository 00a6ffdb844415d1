// Start-up: from spawning the service to its first answered WebSocket request, with every plugin in
// the workspace discovered and enabled. Baseline: spawning an empty Node process until it exits.
import { ProtocolClient, ServiceProcess, createTempFolder } from '@keyframe/test';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { measure, type Figure } from './harness.js';

const RUNS = 7;

export async function benchStartup(): Promise<Figure> {
  const temp = await createTempFolder('keyframe-bench-');
  let discovered = 0;
  try {
    const serviceMs = await measure(async () => {
      const service = await ServiceProcess.start({ dataFolder: temp.path, legacyPort: 'off' });
      const client = await ProtocolClient.connect(service.url);
      const { state } = await client.handshake();
      discovered = Object.keys(state.integrations).length;
      await client.close();
      await service.stop();
    }, RUNS, 1);
    const baselineMs = await measure(async () => {
      await once(spawn(process.execPath, ['-e', ''], { stdio: 'ignore' }), 'exit');
    }, RUNS, 1);
    return {
      name: 'start-up to first NewConnection answer', medianMs: serviceMs, baseline: 'empty Node process',
      baselineMedianMs: baselineMs, ratio: serviceMs / baselineMs, runs: RUNS,
      note: `${discovered} integration(s) discovered and enabled; includes process exit after stop`,
    };
  } finally {
    await temp.remove();
  }
}
