// Soak (long only, `npm run test:long`): a Hybrid recording for KEYFRAME_SOAK_SECONDS (default 30
// minutes) with every integration enabled and its game running (stand-ins), the push-, tail- and
// poll-feed integrations fed their tapes in a loop (over HTTPS with a self-signed certificate where
// the game serves that), a replay saved every 20 s and a clip of it made every 60 s. The service's RSS and open file descriptors must stay flat after warm-up (growth under
// 10%), pings must stay answered, and no temporary file may be left once the recording stops.
import 'reflect-metadata';
import { expect } from 'chai';
import { appendFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createRequire } from 'node:module';
import path from 'node:path';
import { isFeedEntry, readTape } from '@keyframe/core/tapes';
import {
  type Certificate,
  IntegrationService,
  postAsGame,
  readPushToken,
  selfSignedCertificate,
  StandInGame,
  withPushToken,
} from '@keyframe/integration-testkit';
import type { HttpPushInput, PollInput, TailInput } from '@keyframe/core';
import type { ContentItem } from '@keyframe/core/protocol';
import { filesBelow } from '../kit/folder-checksum.js';
import { pingLatencyWatch } from '../kit/ping-latency-watch.js';
import { mebibytes, sampleProcess, type ProcessSample } from '../kit/process-sampler.js';
import { longTestsSelected } from '../kit/test-length.js';

const SOAK_SECONDS = Number(process.env.KEYFRAME_SOAK_SECONDS) || 1800;
const SAMPLE_EVERY_MS = 10_000;
const SAVE_EVERY_MS = 20_000;
const CLIP_EVERY_MS = 60_000;
const PUSH_EVERY_MS = 200;
/** Samples in the first fifth (at least a minute) are warm-up: caches fill, the JIT settles. */
const warmUpMs = (totalMs: number) => Math.max(60_000, totalMs / 5);

const PLUGINS_FOLDER = path.resolve(path.dirname(createRequire(import.meta.url).resolve('@keyframe/core/package.json')), '..', 'plugins');

interface InstalledIntegration {
  key: string;
  /** The first executable name that is a plain file name (no folders or wildcards). */
  executable: string;
  pushPort: number | undefined;
  /** The local endpoint the integration polls (`poll:http(s)://127.0.0.1:<port>/…`). */
  poll: { port: number; https: boolean } | undefined;
  tapes: string[];
}

async function installedIntegrations(): Promise<InstalledIntegration[]> {
  const found: InstalledIntegration[] = [];
  for (const folder of await readdir(PLUGINS_FOLDER)) {
    const manifest = JSON.parse(await readFile(path.join(PLUGINS_FOLDER, folder, 'package.json'), 'utf8')) as {
      keyframe: { integration: { key: string; games: { executables: string[] }[]; feeds: string[] } };
    };
    const { key, games, feeds } = manifest.keyframe.integration;
    const executable = games.flatMap((game) => game.executables).find((name) => !/[*/\\]/.test(name))!;
    const push = feeds.map((feed) => /^httpPush:(\d+)$/.exec(feed)?.[1]).find(Boolean);
    const poll = feeds.map((feed) => /^poll:(https?):\/\/127\.0\.0\.1:(\d+)\//.exec(feed)).find(Boolean);
    const data = path.join(PLUGINS_FOLDER, folder, 'test', 'data');
    const tapes = (await readdir(data).catch(() => [])).filter((file) => file.endsWith('.tape.jsonl')).map((file) => path.join(data, file));
    found.push({
      key,
      executable,
      pushPort: push === undefined ? undefined : Number(push),
      poll: poll ? { port: Number(poll[2]), https: poll[1] === 'https' } : undefined,
      tapes,
    });
  }
  return found;
}

/**
 * Where the tail-feed integrations look for their game's log on Linux (as their health messages
 * say), below the soak's temp folder: the soak writes their tapes' lines there.
 */
const TAIL_FILES: Record<string, (temp: string) => string> = {
  blockSandbox: (temp) => path.join(temp, 'data', 'home', '.minecraft', 'logs', 'latest.log'),
  fantasySurvival: (temp) => path.join(temp, 'data', 'home', '.local', 'share', 'RSDragonwilds', 'Saved', 'Logs', 'RSDragonwilds.log'),
  survivalGame: (temp) => path.join(temp, 'games', 'survivalGame', 'output_log.txt'),
};

/** Sends the `kind` entries of `tapes` in a loop, one every PUSH_EVERY_MS, until `stop`; counts them. */
async function replayInLoop(
  tapes: string[],
  kind: 'httpPush' | 'tail',
  send: (input: HttpPushInput | TailInput) => Promise<unknown>,
): Promise<{ stop(): Promise<number> }> {
  const inputs: (HttpPushInput | TailInput)[] = [];
  for (const file of tapes) {
    for (const entry of (await readTape(file)).entries) {
      if (isFeedEntry(entry) && entry.kind === kind && !('reset' in entry.input)) inputs.push(entry.input as HttpPushInput | TailInput);
    }
  }
  let running = true;
  let sent = 0;
  const loop = (async () => {
    for (let index = 0; running && inputs.length > 0; index = (index + 1) % inputs.length) {
      await send(inputs[index]!).catch(() => undefined);
      sent++;
      await new Promise((resolve) => setTimeout(resolve, PUSH_EVERY_MS));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return sent;
    },
  };
}

/**
 * Answers every request on `port` with the next poll answer of `tapes`, in a loop, until `stop`;
 * counts them. Over HTTPS with `certificate`, as games serve their local APIs.
 */
async function servePollsInLoop(port: number, tapes: string[], certificate?: Certificate): Promise<{ stop(): Promise<number> }> {
  const answers: PollInput[] = [];
  for (const file of tapes) {
    for (const entry of (await readTape(file)).entries)
      if (isFeedEntry(entry) && entry.kind === 'poll') answers.push(entry.input as PollInput);
  }
  let served = 0;
  const answer = (_request: IncomingMessage, response: ServerResponse) => {
    const next = answers[served++ % answers.length]!;
    if ('error' in next) response.destroy();
    else response.writeHead(next.status, { 'Content-Type': 'application/json' }).end(next.body);
  };
  const server = certificate ? createHttpsServer(certificate, answer) : createServer(answer);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      return served;
    },
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

(longTestsSelected() ? describe : describe.skip)('hardening: soak (long)', function () {
  this.timeout(SOAK_SECONDS * 1000 + 300_000);
  let keyframe: IntegrationService | undefined;
  after(() => keyframe?.stop());

  it(`records Hybrid for ${SOAK_SECONDS} s with every integration on, saving replays and clips; RSS and fds stay flat, no temp files left`, async function () {
    if (!StandInGame.supported) this.skip();
    const integrations = await installedIntegrations();
    keyframe = await IntegrationService.start({ integration: 'none' });
    const { client } = keyframe;
    const gameIntegrations = Object.fromEntries(integrations.map((integration) => [integration.key, { enabled: true }]));
    client.send('UpdateSettings', { gameIntegrations, recordingMode: 'Hybrid', replayBufferDuration: 10 });
    await client.until(
      'Settings',
      (settings) => settings.recordingMode === 'Hybrid' && integrations.every(({ key }) => settings.gameIntegrations[key]?.enabled),
      10_000,
    );
    const games: StandInGame[] = [];
    for (const integration of integrations)
      games.push(await keyframe.startGame(path.join('games', integration.key, integration.executable)));
    for (const file of Object.values(TAIL_FILES).map((place) => place(keyframe!.temp.path))) {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, '');
    }

    client.send('StartRecording');
    await client.until('State', (state) => state.recording !== null && state.recording.endTime === null, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const certificate = await selfSignedCertificate(keyframe.temp.path);
    // Pushes carry the token the games' configs hold, as the real games' do.
    const pushToken = await readPushToken(path.join(keyframe.temp.path, 'data'));
    const feeders = await Promise.all(
      integrations
        .filter((integration) => integration.tapes.length > 0)
        .flatMap((integration) => {
          const { pushPort, poll, tapes } = integration;
          const tailFile = TAIL_FILES[integration.key]?.(keyframe!.temp.path);
          if (pushPort !== undefined) {
            return [
              replayInLoop(tapes, 'httpPush', (input) => postAsGame(pushPort, withPushToken((input as HttpPushInput).body, pushToken))),
            ];
          }
          if (poll !== undefined) return [servePollsInLoop(poll.port, tapes, poll.https ? certificate : undefined)];
          return tailFile ? [replayInLoop(tapes, 'tail', (input) => appendFile(tailFile, `${(input as { line: string }).line}\n`))] : [];
        }),
    );
    const watch = pingLatencyWatch(client, 200);

    const pid = keyframe.service.child.pid!;
    const samples: (ProcessSample & { atMs: number })[] = [];
    const startedAt = Date.now();
    const totalMs = SOAK_SECONDS * 1000;
    let saves = 0;
    let clips = 0;
    let nextSave = SAVE_EVERY_MS;
    let nextClip = CLIP_EVERY_MS;
    let nextSample = 0;
    const clipIds = new Set<number>();
    while (Date.now() - startedAt < totalMs) {
      const elapsed = Date.now() - startedAt;
      if (elapsed >= nextSample) {
        samples.push({ ...(await sampleProcess(pid)), atMs: elapsed });
        nextSample += SAMPLE_EVERY_MS;
      }
      if (elapsed >= nextSave) {
        client.send('SaveReplayBuffer');
        saves++;
        nextSave += SAVE_EVERY_MS;
      }
      if (elapsed >= nextClip) {
        const buffer = client.latest('State')?.content.findLast((item: ContentItem) => item.type === 'Buffer');
        if (buffer) {
          const id = 70_000 + clips;
          clipIds.add(id);
          client.send('CreateClip', {
            Segments: [
              { id, startTime: 1, endTime: 6, fileName: buffer.fileName, filePath: buffer.filePath, type: 'Buffer', game: buffer.game },
            ],
          });
          clips++;
        }
        nextClip += CLIP_EVERY_MS;
      }
      expect(keyframe.service.isRunning, 'service running').to.equal(true);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const pushes = (await Promise.all(feeders.map((feeder) => feeder.stop()))).reduce((sum, count) => sum + count, 0);
    const ping = await watch.stop();
    const health = client.latest('State')!.integrations;

    // The games quit first, and the service sees them gone (no integration active), before the stop:
    // with a game still running, auto-recording would start a new recording right after it.
    const recorded = client.latest('State')!.recording!.filePath;
    await Promise.all(games.map((game) => game.stop()));
    await client.until('State', (next) => Object.values(next.integrations).every((entry) => entry.status !== 'active'), 60_000);
    if (client.latest('State')!.recording !== null) client.send('StopRecording');
    const stopped = await client.until(
      'State',
      (next) => next.recording === null && next.content.some((item) => item.filePath === recorded),
      120_000,
    );
    const session = stopped.content.find((item) => item.filePath === recorded)!;
    await client.until(
      'State',
      (state) =>
        state.content.filter((item) => item.type === 'Clip').length >= clips ||
        client.all('ClipProgress').filter((progress) => clipIds.has(progress.id) && (progress.progress === 100 || progress.progress === -1))
          .length >= clips,
      120_000,
    );
    const state = await client.until('State', () => true);
    const count = (type: string) => state.content.filter((item) => item.type === type).length;
    const failedClips = client.all('ClipProgress').filter((progress) => clipIds.has(progress.id) && progress.progress === -1);

    const steady = samples.filter((sample) => sample.atMs >= warmUpMs(totalMs));
    // Halves, not end points: RSS is a saw-tooth between collections, a leak lifts the whole of it.
    const first = steady.slice(0, Math.floor(steady.length / 2));
    const last = steady.slice(Math.floor(steady.length / 2));
    const growth = (pick: (sample: ProcessSample) => number) => median(last.map(pick)) / median(first.map(pick)) - 1;
    const rssGrowth = growth((sample) => sample.rssBytes);
    const fdGrowth = growth((sample) => sample.openFileDescriptors);
    console.log(
      `      ${SOAK_SECONDS} s: ${saves} replay saves -> ${count('Buffer')} Buffer items, ${clips} clips -> ${count('Clip')} Clip items (${failedClips.length} failed), ${pushes} tape inputs (pushes, log lines, poll answers), session ${session.duration} with ${session.bookmarks.length} bookmarks`,
    );
    console.log(`      RSS ${samples.map((sample) => mebibytes(sample.rssBytes).replace(' MiB', '')).join(' ')} MiB`);
    console.log(`      fds ${samples.map((sample) => sample.openFileDescriptors).join(' ')}`);
    console.log(
      `      after warm-up: RSS ${mebibytes(median(first.map((sample) => sample.rssBytes)))} -> ${mebibytes(median(last.map((sample) => sample.rssBytes)))} (${(rssGrowth * 100).toFixed(1)}%), fds ${(fdGrowth * 100).toFixed(1)}%; ping worst ${ping.worstMs.toFixed(1)} ms, median ${ping.medianMs.toFixed(1)} ms (${ping.answered} answered)`,
    );
    console.log(
      `      integrations: ${Object.entries(health)
        .map(([key, entry]) => `${key} ${entry.status}${entry.status === 'active' ? '' : ` (${entry.message})`}`)
        .join('; ')}`,
    );

    expect(steady.length, 'samples after warm-up').to.be.at.least(4);
    expect(rssGrowth, 'RSS growth after warm-up').to.be.below(0.1);
    expect(fdGrowth, 'open fd growth after warm-up').to.be.below(0.1);
    expect(ping.unanswered).to.equal(0);
    expect(count('Buffer'), 'replays saved').to.be.at.least(Math.floor(saves * 0.8));
    expect(failedClips, 'failed clips').to.deep.equal([]);
    expect(client.schemaViolations).to.deep.equal([]);

    const data = path.join(keyframe.temp.path, 'data');
    const content = path.join(keyframe.temp.path, 'videos');
    expect(
      (await filesBelow(content)).filter((file) => file.endsWith('.part') || path.basename(file).startsWith('.')),
      'temporary files in the content folder',
    ).to.deep.equal([]);
    for (const work of ['clip-work', 'replay-buffer', 'recordings']) {
      expect(await filesBelow(path.join(data, 'cache', work)), `files left in cache/${work}`).to.deep.equal([]);
    }
  });
});
