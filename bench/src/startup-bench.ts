// Start-up: from spawning the service to its first answered WebSocket request (the first accepted
// connection's NewConnection answer, up to AppVersion), and from spawning it until its State says that
// nothing is loading any more, with every plugin in the workspace discovered and enabled: checked against
// the workspace's plugins folder. Baseline: spawning an empty Node process until it exits. And `npm start` on
// this built tree against `node core/dist/bundle/keyframe.mjs` (the service as npm start runs it): what the
// README's command adds to the service's own start-up.
import { ProtocolClient, ServiceProcess, createTempFolder } from '@keyframe/integration-testkit';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measure, median, msSince, type Figure } from './harness.js';

const RUNS = 7;
const PLUGINS_FOLDER = fileURLToPath(new URL('../../plugins/', import.meta.url));
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const NPM_START_RUNS = 7;
/** How long the service may take to load everything after it answered. */
const LOADED_TIMEOUT_MS = 30_000;

export async function benchStartup(): Promise<Figure[]> {
  const temp = await createTempFolder('keyframe-bench-');
  const answered: number[] = [];
  const loaded: number[] = [];
  let discovered = 0;
  let loadingAtAnswer = '';
  try {
    // Run -1 is a warm-up.
    for (let run = -1; run < RUNS; run++) {
      const start = process.hrtime.bigint();
      const service = await ServiceProcess.start({ dataFolder: temp.path, legacyPort: 'off', until: 'listening' });
      const client = await ProtocolClient.connect(service.url);
      const { state } = await client.handshake();
      const answeredMs = msSince(start);
      const ready = await client.until('State', (next) => next.loading.length === 0, LOADED_TIMEOUT_MS);
      const loadedMs = msSince(start);
      discovered = Object.keys(ready.integrations).length;
      if (run >= 0) {
        answered.push(answeredMs);
        loaded.push(loadedMs);
        loadingAtAnswer = state.loading.join(', ') || 'nothing';
      }
      await client.close();
      await service.stop();
    }
    const plugins = (await readdir(PLUGINS_FOLDER, { withFileTypes: true })).filter((entry) => entry.isDirectory()).length;
    if (discovered < plugins) throw new Error(`only ${discovered} of the workspace's ${plugins} plugins were in State once loaded`);
    const baselineMs = await measure(
      async () => {
        await once(spawn(process.execPath, ['-e', ''], { stdio: 'ignore' }), 'exit');
      },
      RUNS,
      1,
    );
    const figure = (name: string, times: number[], note: string): Figure => ({
      name,
      medianMs: median(times),
      baseline: 'empty Node process',
      baselineMedianMs: baselineMs,
      ratio: median(times) / baselineMs,
      runs: RUNS,
      note,
    });
    return [
      figure(
        `start-up to first NewConnection answer, ${discovered} plugins`,
        answered,
        `spawn to the answer of the first accepted connection; still loading then (State.loading): ${loadingAtAnswer}`,
      ),
      figure(
        `start-up until nothing is loading, all ${discovered} plugins listed`,
        loaded,
        'spawn to the first State with an empty `loading`, every integration of the workspace in it',
      ),
    ];
  } finally {
    await temp.remove();
  }
}

/**
 * Spawns `command` in a process group of its own, as a terminal runs it, until its service answers a
 * first NewConnection; returns the time that took. Ctrl+C (SIGINT to the group) then stops it.
 */
async function timeToFirstAnswer(command: string, args: readonly string[], parent: string): Promise<number> {
  // A data folder per run: the one stopped last may still hold its lock when npm has exited.
  const dataFolder = await mkdtemp(path.join(parent, 'run-'));
  const start = process.hrtime.bigint();
  const home = path.join(dataFolder, 'home');
  const child = spawn(command, [...args, '--data-dir', dataFolder, '--port', '0', '--legacy-port', 'off'], {
    cwd: REPO,
    env: { ...process.env, HOME: home, USERPROFILE: home, XDG_CONFIG_HOME: undefined, KEYFRAME_GAME_PROCESS_ROOT: dataFolder },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  const exited = once(child, 'exit');
  try {
    let printed = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        printed += chunk.toString();
        const found = /UI:\s+(http:\/\/\S+)/.exec(printed)?.[1];
        // The address is printed once the service answers (the rest may still load).
        if (found) resolve(found);
      });
      void exited.then(() => reject(new Error(`${command} exited before the service was ready:\n${printed}`)));
    });
    const client = await ProtocolClient.connect(url);
    await client.handshake();
    const ms = msSince(start);
    await client.close();
    return ms;
  } finally {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGINT');
    await exited;
  }
}

export async function benchNpmStart(): Promise<Figure> {
  const temp = await createTempFolder('keyframe-bench-');
  try {
    const service = (script: string) => () => timeToFirstAnswer(process.execPath, [path.join(REPO, script)], temp.path);
    // npm start = npm + scripts/start.mjs (finding nothing to build) + the service: each layer alone, in turn,
    // so all meet the machine in the same state.
    const layers = [
      () => timeToFirstAnswer('npm', ['start', '--silent', '--'], temp.path),
      service('scripts/start.mjs'),
      service('core/dist/bundle/keyframe.mjs'),
    ].map((run) => ({ run, times: [] as number[] }));
    // Run -1 is a warm-up.
    for (let run = -1; run < NPM_START_RUNS; run++) {
      for (const layer of layers) {
        const ms = await layer.run();
        if (run >= 0) layer.times.push(ms);
      }
    }
    const [medianMs, scriptMs, baselineMedianMs] = layers.map((layer) => median(layer.times)) as [number, number, number];
    return {
      name: '`npm start` on a built tree to the first NewConnection answer',
      medianMs,
      baseline: 'node core/dist/bundle/keyframe.mjs',
      baselineMedianMs,
      ratio: medianMs / baselineMedianMs,
      runs: NPM_START_RUNS,
      note:
        `npm start adds ${(medianMs - baselineMedianMs).toFixed(0)} ms (goal: at most 1000 ms): ` +
        `scripts/start.mjs finding nothing to build ${(scriptMs - baselineMedianMs).toFixed(0)} ms, npm itself the rest`,
    };
  } finally {
    await temp.remove();
  }
}
