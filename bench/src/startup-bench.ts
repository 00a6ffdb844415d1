// Start-up: from spawning the service to its first answered WebSocket request (the first accepted
// connection's NewConnection answer, up to AppVersion), with every plugin in the workspace discovered
// and enabled: checked against the workspace's plugins folder. Baseline: spawning an empty Node
// process until it exits.
import { ProtocolClient, ServiceProcess, createTempFolder } from '@keyframe/integration-testkit';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { measure, type Figure } from './harness.js';

const RUNS = 7;
const PLUGINS_FOLDER = fileURLToPath(new URL('../../plugins/', import.meta.url));

export async function benchStartup(): Promise<Figure> {
  const temp = await createTempFolder('keyframe-bench-');
  let discovered = 0;
  try {
    const serviceMs = await measure(
      async () => {
        const service = await ServiceProcess.start({ dataFolder: temp.path, legacyPort: 'off' });
        const client = await ProtocolClient.connect(service.url);
        const { state } = await client.handshake();
        discovered = Object.keys(state.integrations).length;
        await client.close();
        await service.stop();
      },
      RUNS,
      1,
    );
    const plugins = (await readdir(PLUGINS_FOLDER, { withFileTypes: true })).filter((entry) => entry.isDirectory()).length;
    if (discovered < plugins) throw new Error(`only ${discovered} of the workspace's ${plugins} plugins were in the first State`);
    const baselineMs = await measure(
      async () => {
        await once(spawn(process.execPath, ['-e', ''], { stdio: 'ignore' }), 'exit');
      },
      RUNS,
      1,
    );
    return {
      name: `start-up to first NewConnection answer, all ${discovered} plugins discovered`,
      medianMs: serviceMs,
      baseline: 'empty Node process',
      baselineMedianMs: baselineMs,
      ratio: serviceMs / baselineMs,
      runs: RUNS,
      note: 'spawn to the answer of the first accepted connection, every integration in its first State; includes process exit after stop',
    };
  } finally {
    await temp.remove();
  }
}
