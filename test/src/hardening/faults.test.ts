// Faults with the real service: ffmpeg missing or crashing mid-job, a full disk during a recording
// and during a clip, a game feed sending garbage at a high rate (under `npm run test:long`), plugins that hang in a hook or throw
// from every hook. Throughout each, a `ping` goes out every 50 ms and the worst answer is measured;
// the user is told (ShowModal, progress -1, integration health) and nothing saved before is lost.
import 'reflect-metadata';
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { Agent, request } from 'node:http';
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ContentItem, EventContentMap } from '@keyframe/core/protocol';
import { filesBelow } from '../kit/folder-checksum.js';
import { createTempFolder, IntegrationService, type ProtocolClient, StandInGame, type TempFolder } from '@keyframe/integration-testkit';
import { fileSha256, importGeneratedVideo } from '../kit/imported-video.js';
import { pingLatencyWatch, type PingLatencyReport } from '../kit/ping-latency-watch.js';
import { ffmpegPath } from '../kit/processes.js';
import { SeededRandom } from '../kit/seeded-random.js';
import { longTestsSelected } from '../kit/test-length.js';
import { serviceUnderTest } from '../kit/service-under-test.js';

const run = promisify(execFile);
/**
 * Every ping is answered within 100 ms, as the issue asks (quiet machine: worst 21 ms, during the
 * garbage feed). KEYFRAME_PING_LIMIT_MS loosens it on a machine busy with other work; every case
 * prints the worst and median it saw.
 */
const PING_LIMIT_MS = Number(process.env.KEYFRAME_PING_LIMIT_MS) || 100;
const seen = new Map<string, PingLatencyReport>();

/** Runs `body` while pinging every 50 ms; the worst answer must stay under the limit. */
async function responsive<T>(name: string, frontend: ProtocolClient, body: () => Promise<T>): Promise<T> {
  const watch = pingLatencyWatch(frontend);
  let result: T;
  try {
    result = await body();
  } finally {
    const report = await watch.stop();
    seen.set(name, report);
    console.log(
      `      ping during "${name}": ${report.answered} answered, worst ${report.worstMs.toFixed(1)} ms, median ${report.medianMs.toFixed(1)} ms`,
    );
  }
  const report = seen.get(name)!;
  expect(report.answered, 'pings answered').to.be.greaterThan(0);
  expect(report.unanswered, 'pings unanswered').to.equal(0);
  expect(report.worstMs, `worst ping (limit ${PING_LIMIT_MS} ms)`).to.be.at.most(PING_LIMIT_MS);
  return result;
}

const modal = (frontend: ProtocolClient, pattern: RegExp, timeoutMs = 60_000) =>
  frontend.next('ShowModal', (content) => pattern.test(`${content.title} ${content.description}`), timeoutMs);

/**
 * An ffmpeg that is the real one, except that while `<folder>/crash-after` holds a number of
 * seconds each run kills itself with SIGKILL after that long (exec keeps the PID, so `kill $$`
 * hits ffmpeg itself). Deleting the script makes ffmpeg missing.
 */
async function writeFfmpegWrapper(folder: string): Promise<{ script: string; crashAfter(seconds: number | undefined): Promise<void> }> {
  await mkdir(folder, { recursive: true });
  const script = path.join(folder, 'ffmpeg');
  const marker = path.join(folder, 'crash-after');
  await writeFile(
    script,
    [
      '#!/bin/sh',
      `if [ -f '${marker}' ]; then`,
      `  (sleep "$(cat '${marker}')"; kill -9 $$) </dev/null >/dev/null 2>&1 &`,
      'fi',
      `exec '${ffmpegPath()}' "$@"`,
      '',
    ].join('\n'),
  );
  await chmod(script, 0o755);
  return {
    script,
    crashAfter: async (seconds) => (seconds === undefined ? rm(marker, { force: true }) : writeFile(marker, String(seconds))),
  };
}

/** A tmpfs of `megabytes` at `folder` (root only); undefined when this machine does not allow it. */
async function mountSmallDisk(folder: string, megabytes: number): Promise<{ unmount(): Promise<void> } | undefined> {
  await mkdir(folder, { recursive: true });
  try {
    await run('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', folder]);
  } catch {
    return undefined;
  }
  return {
    unmount: async () => {
      await run('umount', ['-l', folder]);
    },
  };
}

async function fillDisk(folder: string, leaveBytes: number): Promise<void> {
  const { stdout } = await run('df', ['-B1', '--output=avail', folder]);
  const available = Number(stdout.trim().split('\n').at(-1));
  await writeFile(path.join(folder, 'filler.bin'), Buffer.alloc(Math.max(0, available - leaveBytes)));
}

describe('hardening: faults', function () {
  this.timeout(300_000);
  const under = serviceUnderTest();
  let saved: { item: ContentItem; sha256: string } | undefined;

  after(() => {
    if (seen.size === 0) return;
    const worst = [...seen].sort(([, a], [, b]) => b.worstMs - a.worstMs)[0]!;
    console.log(`      worst ping over all faults: ${worst[1].worstMs.toFixed(1)} ms (during "${worst[0]}")`);
  });

  /** Connects with `env`, sets the content folder and imports a video the fault must not touch. */
  async function prepare(env: NodeJS.ProcessEnv = {}, contentFolder = under.content.path): Promise<ProtocolClient> {
    const { client: frontend } = await under.connect(env);
    frontend.send('UpdateSettings', {
      contentFolder,
      resolution: '720p',
      frameRate: 30,
      recordingMode: 'Session',
      clipPreset: 'slower',
      clipQualityCpu: 10,
      clipFps: 30,
    });
    await frontend.until('Settings', (settings) => settings.contentFolder === contentFolder, 10_000);
    const item = await importGeneratedVideo(frontend, path.join(under.data.path, 'downloads'), 'kept match', {
      seconds: 12,
      tones: [440, 660],
    });
    saved = { item, sha256: await fileSha256(item.filePath) };
    return frontend;
  }

  async function expectSavedIntact(frontend: ProtocolClient): Promise<void> {
    expect(under.process.isRunning, 'service still running').to.equal(true);
    expect(await fileSha256(saved!.item.filePath), 'the file saved before the fault').to.equal(saved!.sha256);
    const { state } = await frontend.handshake();
    expect(state.content.map((item) => item.id)).to.include(saved!.item.id);
    expect(frontend.schemaViolations).to.deep.equal([]);
  }

  /** A re-encoding clip of most of the saved video (a muted track forces the slow path). */
  const slowClip = (item: ContentItem, id: number) => ({
    Segments: [
      {
        id,
        startTime: 0.5,
        endTime: 11.5,
        fileName: item.fileName,
        filePath: item.filePath,
        type: item.type,
        game: item.game,
        mutedAudioTracks: [1],
      },
    ],
  });

  describe('ffmpeg', () => {
    let tools: TempFolder;
    beforeEach(async () => {
      tools = await createTempFolder('keyframe-ffmpeg-');
    });
    afterEach(() => tools.remove());

    it('crashing mid-recording: the recording stops, the user is told, what was recorded is kept', async () => {
      const wrapper = await writeFfmpegWrapper(tools.path);
      const frontend = await prepare({ FFMPEG_PATH: wrapper.script });
      await responsive('ffmpeg crash mid-recording', frontend, async () => {
        await wrapper.crashAfter(4);
        frontend.send('StartRecording');
        await frontend.until('State', (state) => state.recording !== null && state.preRecording === null, 30_000);
        const told = await modal(frontend, /Recording stopped/);
        await wrapper.crashAfter(undefined);
        expect(told.type).to.equal('error');
        expect(told.description).to.match(/saved as/);
        const state = await frontend.until('State', (next) => next.recording === null && next.content.length === 2, 60_000);
        expect(state.content.map((item) => item.type).sort()).to.deep.equal(['Session', 'Session']);
      });
      await expectSavedIntact(frontend);
    });

    it('crashing mid-clip: ClipProgress -1, no half-written clip, the source intact', async () => {
      const wrapper = await writeFfmpegWrapper(tools.path);
      const frontend = await prepare({ FFMPEG_PATH: wrapper.script });
      await responsive('ffmpeg crash mid-clip', frontend, async () => {
        await wrapper.crashAfter(2);
        frontend.send('CreateClip', slowClip(saved!.item, 501));
        const failed = await frontend.next('ClipProgress', (progress) => progress.id === 501 && progress.progress === -1, 120_000);
        await wrapper.crashAfter(undefined);
        expect(failed.error, 'the reason').to.be.a('string').and.not.equal('');
      });
      const files = await filesBelow(under.content.path);
      expect(files.filter((file) => file.endsWith('.part') || file.startsWith('Clips'))).to.deep.equal([]);
      expect(frontend.latest('State')!.content.filter((item) => item.type === 'Clip')).to.deep.equal([]);
      await expectSavedIntact(frontend);
    });

    it('missing (uninstalled while running): recording and clips are refused with a reason, the service carries on', async () => {
      const wrapper = await writeFfmpegWrapper(tools.path);
      const frontend = await prepare({ FFMPEG_PATH: wrapper.script });
      await rm(wrapper.script);
      await responsive('ffmpeg missing', frontend, async () => {
        frontend.send('StartRecording');
        const [refused, told] = await Promise.all([
          frontend.next('CommandRejected', (rejection) => rejection.method === 'StartRecording', 30_000),
          modal(frontend, /Recording failed/),
        ]);
        expect(refused.message).to.match(/could not start/);
        expect(told.type).to.equal('error');
        frontend.send('CreateClip', slowClip(saved!.item, 502));
        const failed = await frontend.next('ClipProgress', (progress) => progress.id === 502 && progress.progress === -1, 60_000);
        console.log(`      clip told: ${failed.error}`);
        expect(failed.error).to.match(/ffmpeg/);
      });
      expect(frontend.latest('State')!.recording).to.equal(null);
      await expectSavedIntact(frontend);
    });
  });

  describe('a full disk (a 24 MiB tmpfs)', () => {
    let disk: TempFolder;
    let mounted: { unmount(): Promise<void> } | undefined;
    beforeEach(async function () {
      disk = await createTempFolder('keyframe-small-disk-');
      mounted = await mountSmallDisk(disk.path, 24);
      if (!mounted) {
        this.currentTest!.title += ' (skipped: mounting a tmpfs needs root, or a machine that allows mounts)';
        this.skip();
      }
    });
    afterEach(async () => {
      await under.client?.close();
      await under.service?.stop();
      await mounted?.unmount();
      await disk.remove();
    });

    it('during a recording: ffmpeg fails writing, the user is told, what fit is kept', async () => {
      // The free-space guard would stop the recording before the disk fills: switched off here.
      const frontend = await prepare({ KEYFRAME_MIN_FREE_BYTES: '0' });
      const cache = path.join(disk.path, 'cache');
      frontend.send('SetCacheLocation', { Path: cache });
      await frontend.until('Settings', (settings) => settings.cacheFolder === cache, 30_000);
      // The test pattern encodes to a few tens of KiB a second: 128 KiB left fills within seconds.
      await fillDisk(disk.path, 128 * 1024);
      await responsive('full disk during a recording', frontend, async () => {
        frontend.send('StartRecording');
        const told = await modal(frontend, /out of disk space|write error|cannot write/i, 120_000);
        expect(told.type).to.equal('error');
        console.log(`      told: ${told.title}: ${told.description.slice(0, 200)}`);
        await frontend.until('State', (state) => state.recording === null, 60_000);
      });
      await expectSavedIntact(frontend);
    });

    it('during a clip: ClipProgress -1, no partial clip left, the source intact', async () => {
      const content = path.join(disk.path, 'content');
      const frontend = await prepare({}, content);
      await fillDisk(disk.path, 256 * 1024);
      await responsive('full disk during a clip', frontend, async () => {
        frontend.send('CreateClip', slowClip(saved!.item, 503));
        const failed: EventContentMap['ClipProgress'] = await frontend.next(
          'ClipProgress',
          (progress) => progress.id === 503 && progress.progress === -1,
          180_000,
        );
        console.log(`      told: ${failed.error?.slice(0, 160)}`);
        expect(failed.error).to.match(/space|ENOSPC|write/i);
      });
      expect((await filesBelow(content)).filter((file) => file.endsWith('.part') || file.startsWith('Clips'))).to.deep.equal([]);
      expect(frontend.latest('State')!.content.filter((item) => item.type === 'Clip')).to.deep.equal([]);
      await expectSavedIntact(frontend);
    });
  });

  // A flood: the most load-sensitive test here (its ping bound), and long-running; `npm run test:long` runs it.
  (longTestsSelected() ? describe : describe.skip)('a game feed sending garbage (long)', () => {
    /** The tactical-shooter integration's push port (its GSI config names it; no other test port exists). */
    const GSI_PORT = 1340;
    const GAME_FOLDER = path.join('steam', 'steamapps', 'common', 'Counter-Strike Global Offensive', 'game');
    let keyframe: IntegrationService | undefined;
    afterEach(() => keyframe?.stop());

    it('thousands of garbage pushes a second to the live feed: the recording goes on, the integration stays up', async function () {
      if (!StandInGame.supported) this.skip();
      keyframe = await IntegrationService.start({
        integration: 'tacticalShooter',
        prepare: async (temp) => {
          await mkdir(path.join(temp.path, GAME_FOLDER, 'csgo'), { recursive: true });
        },
        env: (temp) => ({ KEYFRAME_STEAM_LIBRARIES: path.join(temp.path, 'steam') }),
      });
      await keyframe.startGame(path.join(GAME_FOLDER, 'bin', 'linuxsteamrt64', 'cs2'));
      await keyframe.recordWhileActive();
      const random = new SeededRandom(SeededRandom.seedFromEnvironment());
      const sent = await responsive('garbage on the game feed', keyframe.client, () => postGarbage(GSI_PORT, random, GARBAGE_SECONDS));
      console.log(
        `      ${sent.requests} garbage pushes in ${GARBAGE_SECONDS} s (${Math.round(sent.requests / GARBAGE_SECONDS)}/s, seed ${random.seed}); answers ${[...sent.statuses].map(([status, count]) => `${status} ×${count}`).join(', ')}`,
      );
      expect(sent.requests / GARBAGE_SECONDS, 'garbage pushes per second').to.be.greaterThan(MIN_GARBAGE_RATE);
      expect(keyframe.service.isRunning).to.equal(true);
      const state = keyframe.client.latest('State')!;
      expect(state.recording, 'the recording goes on').to.not.equal(null);
      expect(keyframe.health(state)?.status).to.not.equal('failed');
      const session = await keyframe.stopRecording();
      expect(session.type).to.equal('Session');
      expect(keyframe.client.schemaViolations).to.deep.equal([]);
    });
  });

  describe('plugins', () => {
    it('one hanging in activate() and one throwing from every hook: both reported failed, the recording goes on and is saved', async function () {
      if (!StandInGame.supported) this.skip();
      // A folder named in KEYFRAME_PLUGIN_DIRS, as a plugin developer does: trusted without an approval.
      const modules = path.join(under.data.path, 'dev-plugins');
      await writePlugin(
        modules,
        'hangingGame',
        'hang-game',
        `
        export default class HangingGame {
          async enable() {}
          activate() { return new Promise(() => {}); }
          async deactivate() {}
        }`,
      );
      await writePlugin(
        modules,
        'throwingGame',
        'throw-game',
        `
        export default class ThrowingGame {
          async enable() {}
          activate() { throw new Error('activate exploded'); }
          deactivate() { throw new Error('deactivate exploded'); }
        }`,
      );
      const frontend = await prepare({ KEYFRAME_HOOK_DEADLINE_MS: '1500', KEYFRAME_PLUGIN_DIRS: modules });
      const games = [
        await StandInGame.start(path.join(under.data.path, 'games', 'hang-game')),
        await StandInGame.start(path.join(under.data.path, 'games', 'throw-game')),
      ];
      try {
        await responsive('hanging and throwing plugins', frontend, async () => {
          frontend.send('StartRecording');
          const state = await frontend.until(
            'State',
            (next) => next.integrations.hangingGame?.status === 'failed' && next.integrations.throwingGame?.status === 'failed',
            60_000,
          );
          expect(state.integrations.hangingGame!.message).to.match(/did not finish within 1500 ms/);
          expect(state.integrations.throwingGame!.message).to.match(/activate exploded/);
          expect(state.recording, 'the recording goes on').to.not.equal(null);
          // Restarts (after 1 s, 2 s …) fail the same way while the recording continues.
          await new Promise((resolve) => setTimeout(resolve, 2500));
          frontend.send('StopRecording');
          await frontend.until('State', (next) => next.recording === null && next.content.length === 2, 60_000);
        });
      } finally {
        await Promise.all(games.map((game) => game.stop()));
      }
      await expectSavedIntact(frontend);
    });
  });
});

async function writePlugin(modules: string, key: string, executable: string, source: string): Promise<void> {
  const folder = path.join(modules, `keyframe-plugin-${key}`);
  await mkdir(folder, { recursive: true });
  await writeFile(
    path.join(folder, 'package.json'),
    JSON.stringify({
      name: `keyframe-plugin-${key}`,
      version: '1.0.0',
      type: 'module',
      main: 'index.js',
      keyframe: {
        apiVersion: 1,
        integration: { key, displayName: key, events: ['Kill'], games: [{ name: `${key} game`, executables: [executable] }], feeds: [] },
      },
    }),
  );
  await writeFile(path.join(folder, 'index.js'), source);
}

const GARBAGE_SECONDS = 5;
/** What this loaded 2-core machine sustains with the sender on the same cores; the rate reached is printed. */
const MIN_GARBAGE_RATE = 200;
const GARBAGE_WORKERS = 16;

/** POSTs garbage (random bytes, broken and foreign JSON, oversized bodies, odd methods) from many keep-alive workers. */
async function postGarbage(
  port: number,
  random: SeededRandom,
  seconds: number,
): Promise<{ requests: number; statuses: Map<string, number> }> {
  const agent = new Agent({ keepAlive: true, maxSockets: GARBAGE_WORKERS });
  // Made up front so that the sending side spends its time sending.
  const bodies = [
    ...Array.from({ length: 32 }, () => random.bytes(random.integer(1, 4096))),
    Buffer.from('{"provider": {"appid": 730}, "player": '),
    ...Array.from({ length: 8 }, () =>
      Buffer.from(
        JSON.stringify({ provider: { appid: random.integer(0, 1e6) }, map: [1, 2], player: 'x'.repeat(random.integer(0, 5000)) }),
      ),
    ),
    Buffer.from(`${'['.repeat(10_000)}${']'.repeat(10_000)}`),
    Buffer.from('null'),
  ];
  const oversized = Buffer.alloc(1024 * 1024 + 10, 0x7b);
  const statuses = new Map<string, number>();
  let requests = 0;
  const deadline = Date.now() + seconds * 1000;
  const worker = async () => {
    while (Date.now() < deadline) {
      const body = random.chance(0.002) ? oversized : random.pick(bodies);
      const method = random.chance(0.05) ? random.pick(['GET', 'PUT', 'DELETE', 'PATCH']) : 'POST';
      const status = await new Promise<string>((resolve) => {
        const sent = request(
          {
            host: '127.0.0.1',
            port,
            method,
            path: random.pick(['/', '/x', '/../../etc']),
            agent,
            headers: { 'Content-Type': random.pick(['application/json', 'text/plain', 'application/octet-stream']) },
          },
          (response) => {
            response.resume();
            response.once('end', () => resolve(String(response.statusCode)));
          },
        );
        sent.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
        sent.end(body);
      });
      requests++;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: GARBAGE_WORKERS }, worker));
  agent.destroy();
  return { requests, statuses };
}
