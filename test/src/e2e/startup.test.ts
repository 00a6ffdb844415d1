// Start-up answers first: a frontend gets its first State while a slow integration still loads, State's
// `loading` says so, and lists it once loaded; a recording asked for meanwhile waits for the capture engine;
// the start-up output and State name the ffmpeg in use.
import 'reflect-metadata';
import { expect } from 'chai';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTempFolder, ProtocolClient, ServiceProcess, type TempFolder } from '@keyframe/integration-testkit';

/** How long the slow plugin's module takes to load: long enough that the service answers first. */
const SLOW_LOAD_MS = 3000;

const SLOW_PLUGIN_SOURCE = `
await new Promise((resolve) => setTimeout(resolve, ${SLOW_LOAD_MS}));
export default class SlowGame {
  async activate() {}
  async deactivate() {}
}
`;

async function writeSlowPlugin(folder: string): Promise<void> {
  const root = path.join(folder, 'keyframe-plugin-slow-game');
  await mkdir(root, { recursive: true });
  await writeFile(path.join(root, 'index.js'), SLOW_PLUGIN_SOURCE);
  await writeFile(
    path.join(root, 'package.json'),
    JSON.stringify({
      name: 'keyframe-plugin-slow-game',
      version: '1.0.0',
      type: 'module',
      main: 'index.js',
      keyframe: {
        apiVersion: 1,
        integration: {
          key: 'slowGame',
          displayName: 'Slow game',
          events: ['Kill'],
          games: [{ name: 'Slow Game', executables: ['slow-game.exe'] }],
          feeds: [],
        },
      },
    }),
  );
}

describe('start-up', function () {
  this.timeout(30_000);
  let data: TempFolder;
  let service: ServiceProcess | undefined;
  let client: ProtocolClient | undefined;

  beforeEach(async () => {
    data = await createTempFolder();
    await writeSlowPlugin(path.join(data.path, 'slow-plugins'));
  });
  /** The service with the slow plugin, as soon as it prints its address. */
  const startListening = () =>
    ServiceProcess.start({
      dataFolder: data.path,
      legacyPort: 'off',
      until: 'listening',
      env: { KEYFRAME_CAPTURE: 'synthetic', KEYFRAME_PLUGIN_DIRS: path.join(data.path, 'slow-plugins') },
    });
  afterEach(async () => {
    await client?.close();
    await service?.stop();
    await data.remove();
  });

  it('answers NewConnection while integrations load, then lists them with nothing loading', async () => {
    service = await startListening();
    client = await ProtocolClient.connect(service.url);
    const { state } = await client.handshake();
    // Answered before the slow plugin's class loaded.
    expect(state.loading).to.include('integrations');

    // Asked for while the capture engine may still be probed: it waits, then records.
    client.send('UpdateSettings', { recordingMode: 'Session', contentFolder: path.join(data.path, 'content') });
    client.send('StartRecording');
    await client.until('State', (next) => next.recording !== null, 15_000);

    const loaded = await client.until('State', (next) => next.loading.length === 0, 15_000);
    expect(loaded.integrations.slowGame).to.deep.include({ displayName: 'Slow game' });
    expect(loaded.hasLoadedCaptureEngine).to.equal(true);
    expect(client.all('CommandRejected')).to.deep.equal([]);
    client.send('StopRecording');
    await client.until('State', (next) => next.recording === null, 15_000);
    expect(service.printed).to.include('Loaded. Press Ctrl+C to stop.');
    // Which ffmpeg records (here the fallback when ffmpeg-static's fetch failed), in State and in the start-up output.
    const engine = loaded.captureEngine;
    expect(engine, 'State.captureEngine').to.not.equal(null);
    expect(service.printed).to.include(`Capture engine: ffmpeg ${engine!.version} (`).and.include(engine!.path);
    if (engine!.missing.length > 0) expect(service.printed).to.include(`this build has ${engine!.missing[0]}`);
  });

  it('stops cleanly while integrations are still loading', async () => {
    service = await startListening();
    expect(await service.stop()).to.deep.equal({ code: 0, signal: null });
  });
});
