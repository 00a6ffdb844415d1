// Nothing lost when things happen at once, and one Keyframe per data folder: concurrent renames and
// imports against the real service keep every video whole and every item on its own file; a second
// service on a running one's data folder refuses to start and touches nothing of its recording.
import 'reflect-metadata';
import { expect } from 'chai';
import { parseDuration, type ContentItem } from '@keyframe/core/protocol';
import { generateVideo } from '@keyframe/core/testing';
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileSha256, importGeneratedVideo } from '../kit/imported-video.js';
import { ffmpegPath } from '../kit/processes.js';
import { createTempFolder, ProtocolClient, ServiceProcess } from '@keyframe/integration-testkit';
import { serviceUnderTest } from '../kit/service-under-test.js';

/** Files below `folder` (relative), hidden ones included. */
const filesBelow = async (folder: string) =>
  (await readdir(folder, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .sort();

describe('concurrent jobs never overwrite each other', function () {
  this.timeout(120_000);
  const under = serviceUnderTest();

  const connectWithContentFolder = async () => {
    const { client } = await under.connect();
    client.send('UpdateSettings', { contentFolder: under.content.path });
    await client.until('Settings', (settings) => path.resolve(settings.contentFolder) === path.resolve(under.content.path), 10_000);
    return client;
  };

  it('two renames to one title at once give two files, both videos intact, each item on its own file', async () => {
    const frontend = await connectWithContentFolder();
    const sources = path.join(under.data.path, 'sources');
    const first = await importGeneratedVideo(frontend, sources, 'first', { seconds: 2 });
    const second = await importGeneratedVideo(frontend, sources, 'second', { seconds: 3, tones: [660] });
    const sums = new Map([
      [first.id, await fileSha256(first.filePath)],
      [second.id, await fileSha256(second.filePath)],
    ]);

    frontend.send('RenameContent', { FileName: first.fileName, ContentType: 'Session', Title: 'Ace' });
    frontend.send('RenameContent', { FileName: second.fileName, ContentType: 'Session', Title: 'Ace' });
    const state = await frontend.until('State', (next) => next.content.filter((item) => item.title === 'Ace').length === 2, 20_000);

    const renamed = state.content.filter((item) => item.title === 'Ace');
    expect(new Set(renamed.map((item) => item.filePath)).size, 'distinct files').to.equal(2);
    expect(renamed.map((item) => item.fileName).sort()).to.deep.equal(['Ace', 'Ace (1)']);
    for (const item of renamed) expect(await fileSha256(item.filePath), `${item.fileName} holds its own video`).to.equal(sums.get(item.id));
    expect(await filesBelow(path.join(under.content.path, 'Full Sessions'))).to.deep.equal(['Imported/Ace (1).mp4', 'Imported/Ace.mp4']);
    console.log(`      2 concurrent renames: ${renamed.length} items, ${renamed.length} files, checksums intact`);
  });

  it("six imports at once of two different files both named x.mp4 give six items, each with its own source's video", async () => {
    const frontend = await connectWithContentFolder();
    const sources = await Promise.all(
      ['a', 'b'].map(async (folder, index) => {
        const file = path.join(under.data.path, 'downloads', folder, 'x.mp4');
        await mkdir(path.dirname(file), { recursive: true });
        await generateVideo(ffmpegPath(), file, { seconds: 2 + index * 2, width: 320, height: 180, tones: [440 + index * 220] });
        return { file, sha256: await fileSha256(file), sizeBytes: (await stat(file)).size };
      }),
    );
    const imports = [0, 1, 0, 1, 0, 1].map((index) => sources[index]!);
    for (const source of imports) frontend.send('ImportFile', { sectionId: 'sessions', FilePaths: [source.file] });
    const finished: { status: string; message?: string | null }[] = [];
    while (finished.length < imports.length) {
      finished.push(
        await frontend.next('ImportProgress', (progress) => progress.fileName === 'Finished' || progress.fileName === 'Failed', 60_000),
      );
    }
    const failures = finished.filter((progress) => progress.status !== 'done');
    expect(failures, 'every import succeeded').to.deep.equal([]);

    const state = await frontend.until('State', (next) => next.content.filter((item) => item.isImported).length === 6, 20_000);
    const items: ContentItem[] = state.content.filter((item) => item.isImported);
    expect(new Set(items.map((item) => item.filePath)).size, 'one file per item').to.equal(6);
    const perSource = new Map<string, number>();
    for (const item of items) {
      const sha256 = await fileSha256(item.filePath);
      const source = sources.find((candidate) => candidate.sha256 === sha256);
      expect(source, `${item.fileName} holds one of the sources, whole`).to.not.equal(undefined);
      perSource.set(source!.file, (perSource.get(source!.file) ?? 0) + 1);
      // The metadata is that of the video in the item's file, not of the other x.mp4.
      expect(parseDuration(item.duration), `${item.fileName} duration`).to.be.closeTo(2 + sources.indexOf(source!) * 2, 0.2);
      expect((await stat(item.filePath)).size).to.equal(source!.sizeBytes);
    }
    expect([...perSource.values()]).to.deep.equal([3, 3]);
    const left = await filesBelow(path.join(under.content.path, 'Full Sessions'));
    expect(
      left.filter((file) => file.endsWith('.part')),
      'temporary files left',
    ).to.deep.equal([]);
    expect(left).to.have.length(6);
    console.log(`      6 concurrent imports of two x.mp4: ${items.length} items, ${left.length} files, 0 .part files left`);
  });
});

describe('one Keyframe per data folder', function () {
  this.timeout(120_000);
  const under = serviceUnderTest();
  let second: ServiceProcess | undefined;
  afterEach(async () => {
    await second?.stop();
    second = undefined;
  });

  /** A (the service under test) recording a Session; resolves with its growing cache file. */
  const startRecording = async (frontend: ProtocolClient): Promise<string> => {
    frontend.send('UpdateSettings', { resolution: '720p', frameRate: 30, contentFolder: under.content.path });
    await frontend.next('Settings');
    frontend.send('StartRecording');
    await frontend.next('State', (state) => state.recording !== null && state.preRecording === null, 15_000);
    const recordings = path.join(under.data.path, 'cache', 'recordings');
    const file = path.join(recordings, (await readdir(recordings))[0]!);
    await waitFor(async () => (await stat(file)).size > 0);
    return file;
  };

  it("a second service on a running one's data folder exits naming it; the first one's recording is untouched and still growing", async () => {
    const { client } = await under.connect();
    const recording = await startRecording(client);
    const firstPid = under.process.child.pid!;
    const firstPort = new URL(under.process.url).port;

    const refusal = await ServiceProcess.start({
      dataFolder: under.data.path,
      legacyPort: 'off',
      env: { KEYFRAME_CAPTURE: 'synthetic' },
    }).then(
      (started) => {
        second = started;
        return undefined;
      },
      (error: unknown) => (error as Error).message,
    );
    expect(refusal, 'the second service refused to start').to.be.a('string');
    expect(refusal).to.include('exited with 1');
    expect(refusal).to.include(`The data folder ${under.data.path} is in use by another Keyframe (pid ${firstPid}, port ${firstPort}`);
    expect(refusal).to.include('stop the other one, or start this one with another --data-dir');

    const sizeAfter = (await stat(recording)).size;
    await waitFor(async () => (await stat(recording)).size > sizeAfter);
    expect(under.process.isRunning).to.equal(true);
    const lock = path.join(under.data.path, 'keyframe.lock');
    expect(JSON.parse(await readFile(lock, 'utf8'))).to.include({ pid: firstPid, port: Number(firstPort) });
    console.log(`      second service refused; recording grew from ${sizeAfter} to ${(await stat(recording)).size} bytes meanwhile`);
  });

  it('after the first service is killed (kill -9), the next one takes over its lock and offers its recording for recovery', async () => {
    const { client } = await under.connect();
    const recording = await startRecording(client);
    await under.process.kill();

    const { client: frontend } = await under.connect();
    const prompt = await frontend.next('RecoveryPrompt', () => true, 10_000);
    expect(prompt.files.map((file) => file.fileName)).to.deep.equal([path.basename(recording)]);
    expect(await readdir(under.data.path)).to.include('keyframe.lock');
  });

  it("a service whose cache folder is another running service's does not offer that service's live recording", async () => {
    const { client } = await under.connect();
    const recording = await startRecording(client);
    const other = await createTempFolder();
    try {
      second = await ServiceProcess.start({ dataFolder: other.path, legacyPort: 'off', env: { KEYFRAME_CAPTURE: 'synthetic' } });
      let frontend = await ProtocolClient.connect(second.url);
      await frontend.handshake();
      frontend.send('UpdateSettings', { cacheFolder: path.join(under.data.path, 'cache') });
      await frontend.until('Settings', (settings) => path.resolve(settings.cacheFolder) === path.join(under.data.path, 'cache'), 10_000);
      await frontend.close();
      await second.stop();
      // Started again: the recovery scan runs at start-up.
      second = await ServiceProcess.start({ dataFolder: other.path, legacyPort: 'off', env: { KEYFRAME_CAPTURE: 'synthetic' } });
      frontend = await ProtocolClient.connect(second.url);
      await frontend.handshake();
      frontend.sendRaw('ping');
      await frontend.next('pong');
      expect(frontend.all('RecoveryPrompt'), 'no recovery offered for a file being written').to.deep.equal([]);
      await frontend.close();
      const sizeBefore = (await stat(recording)).size;
      await waitFor(async () => (await stat(recording)).size > sizeBefore);
    } finally {
      await second?.stop();
      second = undefined;
      await other.remove();
    }
  });
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
