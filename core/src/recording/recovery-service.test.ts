import 'reflect-metadata';
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FfmpegToolbox } from '../media/ffmpeg-toolbox.js';
import { commandRejection, RecordedEvents } from '../testing/fixtures.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { needsRemux, readMp4Layout } from '../media/mp4-layout.js';
import { probeMedia } from '../media/probe.js';
import { EVENT_SINK } from '../protocol/event-sink.js';
import { ContentLibrary } from '../library/content-library.js';
import { findOrphanVideos, RecoveryService, toRecoverableFile } from './recovery-service.js';
import { StorageMonitor } from '../storage/storage-monitor.js';

describe('recovery', function () {
  this.timeout(30000);
  let folder: string;
  let videos: string;
  let cache: string;
  let events: RecordedEvents;
  let app: TestApp;
  let library: ContentLibrary;

  const file = async (relative: string, bytes = 1024) => {
    const target = path.join(folder, relative);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, Buffer.alloc(bytes));
    return target;
  };

  beforeEach(async () => {
    events = new RecordedEvents();
    app = await createTestApp({ settings: {}, overrides: [[EVENT_SINK, events]] });
    folder = app.dataFolder;
    videos = path.join(folder, 'Videos');
    cache = path.join(folder, 'cache');
    library = app.resolve(ContentLibrary);
    await library.load();
  });
  afterEach(() => app.dispose());

  it('finds videos no sidecar lists: interrupted recordings, then files under the type folders', async () => {
    const interrupted = await file('cache/recordings/2026-11-22_10-00-00.mp4', 3 * 1024 * 1024);
    await file('cache/recordings/segment.ts');
    await file('cache/recordings/nested/deeper.mp4');
    const listed = await file('Videos/Full Sessions/Arena/listed.mp4');
    await library.add({ type: 'Session', filePath: listed, game: 'Arena', durationSeconds: 5 });
    const session = await file('Videos/Full Sessions/Arena/orphan.mp4');
    const loose = await file('Videos/Clips/loose.MP4');
    const nested = await file('Videos/Highlights/Some_ Game/2026/deep.mp4');
    const buffer = await file('Videos/Replay Buffers/Unmapped/buffer.mp4');
    await file('Videos/Clips/Arena/notes.txt');
    await file('Videos/Clips/Arena/.hidden.mp4');
    await file('Videos/Clips/Arena/clip.mp4.part');
    await file('Videos/Elsewhere/ignored.mp4');

    const found = await findOrphanVideos({
      cacheFolder: cache,
      contentFolder: videos,
      listedPaths: library.list().map((item) => item.filePath),
      knownGames: ['Arena', 'Some: Game'],
    });
    expect(found.map(({ filePath, type, detectedGame, inCache }) => ({ filePath, type, detectedGame, inCache }))).to.deep.equal([
      { filePath: interrupted, type: 'Session', detectedGame: undefined, inCache: true },
      { filePath: session, type: 'Session', detectedGame: 'Arena', inCache: false },
      { filePath: loose, type: 'Clip', detectedGame: undefined, inCache: false },
      { filePath: nested, type: 'Highlight', detectedGame: 'Some: Game', inCache: false },
      { filePath: buffer, type: 'Buffer', detectedGame: 'Unmapped', inCache: false },
    ]);
    expect(found[0]!.sizeBytes).to.equal(3 * 1024 * 1024);
  });

  it('describes a file as the prompt shows it', () => {
    const shown = toRecoverableFile({
      recoveryId: '8d3e0000-0000-4000-8000-000000000000',
      filePath: path.join(videos, 'Full Sessions', 'Arena', 'x.mp4'),
      type: 'Session',
      detectedGame: 'Arena',
      inCache: false,
      sizeBytes: 812.4 * 1024 * 1024,
    });
    expect(shown).to.deep.equal({
      recoveryId: '8d3e0000-0000-4000-8000-000000000000',
      fileName: 'x.mp4',
      filePath: `${videos.replaceAll('\\', '/')}/Full Sessions/Arena/x.mp4`,
      type: 'Session',
      typeLabel: 'Session Recording',
      fileSize: '812.40 MB',
      detectedGame: 'Arena',
    });
    expect(
      toRecoverableFile({ recoveryId: 'r', filePath: '/v/b.mp4', type: 'Buffer', detectedGame: undefined, inCache: true, sizeBytes: 0 }),
    ).to.deep.include({ typeLabel: 'Replay Buffer', detectedGame: null, fileSize: '0.00 MB' });
  });

  describe('RecoveryService', () => {
    let toolbox: FfmpegToolbox;
    let refreshes: number;

    /** A new service over the app's (a restart), with a monitor that counts refreshes. */
    const service = () => {
      const monitor = {
        refreshSoon: () => {
          refreshes++;
        },
      } as unknown as StorageMonitor;
      return app.fresh(RecoveryService, [[StorageMonitor, monitor]]);
    };
    /** A fragmented MP4 as an interrupted recording leaves it. */
    const fragmentedRecording = async (target: string, seconds = 2) => {
      await mkdir(path.dirname(target), { recursive: true });
      await new Promise<void>((resolve, reject) =>
        execFile(
          toolbox.requireFfmpeg('The test').ffmpeg.path,
          [
            '-v',
            'error',
            '-f',
            'lavfi',
            '-i',
            `testsrc2=size=320x180:rate=30:duration=${seconds}`,
            '-f',
            'lavfi',
            '-i',
            `sine=frequency=440:duration=${seconds}`,
            '-c:v',
            'libx264',
            '-preset',
            'ultrafast',
            '-g',
            '30',
            '-c:a',
            'aac',
            '-movflags',
            'frag_keyframe+empty_moov+default_base_moof',
            '-y',
            target,
          ],
          (error, _stdout, stderr) => (error ? reject(new Error(stderr || error.message)) : resolve()),
        ),
      );
      return target;
    };
    beforeEach(async () => {
      toolbox = app.resolve(FfmpegToolbox);
      await toolbox.load({ downloadFolder: path.join(folder, 'capture-engine') });
      refreshes = 0;
    });

    it('holds the prompt until offered, recovers an interrupted recording into the content folder as a regular MP4', async () => {
      const interrupted = await fragmentedRecording(path.join(cache, 'recordings', '2026-11-22_10-00-00.mp4'));
      expect((await readMp4Layout(interrupted)).fragmented).to.equal(true);
      events.isConnected = false;
      const recovery = service();
      const [candidate] = await recovery.scan();
      expect(events.of('RecoveryPrompt'), 'no frontend yet').to.deep.equal([]);
      events.isConnected = true;
      recovery.offerPending();
      const prompt = events.of('RecoveryPrompt')[0]!;
      expect(prompt.totalCount).to.equal(1);
      expect(prompt.files[0]).to.deep.include({
        recoveryId: candidate!.recoveryId,
        fileName: '2026-11-22_10-00-00.mp4',
        type: 'Session',
        typeLabel: 'Session Recording',
        detectedGame: null,
      });
      recovery.offerPending();
      expect(events.of('RecoveryPrompt'), 'a frontend that connects before answering gets it too').to.deep.equal([prompt, prompt]);

      await recovery.confirm({ recoveryId: candidate!.recoveryId, action: 'recover', gameOverride: '  My: Game ' });
      expect(existsSync(interrupted)).to.equal(false);
      const [item] = library.list();
      expect(item).to.deep.include({ type: 'Session', game: 'My: Game', fileName: '2026-11-22_10-00-00' });
      expect(item!.filePath).to.equal(`${videos.replaceAll('\\', '/')}/Full Sessions/My_ Game/2026-11-22_10-00-00.mp4`);
      expect(item!.durationSeconds).to.be.within(1.9, 2.1);
      expect(item!.recordedFrom).to.deep.equal(new Date(2026, 10, 22, 10, 0, 0));
      const layout = await readMp4Layout(item!.filePath);
      expect(layout.fragmented).to.equal(false);
      expect(needsRemux(layout)).to.equal(false);
      expect(
        (await probeMedia(toolbox.requireFfmpeg('The test').ffprobe.path, item!.filePath)).streams.map((stream) => stream.type),
      ).to.deep.equal(['video', 'audio']);
      expect(await readdir(path.join(cache, 'thumbnails', 'Full Sessions'))).to.deep.equal([`${item!.id}.jpeg`]);
      expect(await readdir(path.join(cache, 'waveforms', 'Full Sessions'))).to.deep.equal([`${item!.id}.peaks.json`]);
      expect(await readdir(path.join(videos, 'Full Sessions', 'My_ Game'))).to.deep.equal(['2026-11-22_10-00-00.mp4']);

      expect((await commandRejection(recovery.confirm({ recoveryId: candidate!.recoveryId, action: 'recover' }))).code).to.equal(
        'NotFound',
      );
      expect(await service().scan()).to.deep.equal([]);
    });

    it('recovers a file of a type folder in place with its folder game; deletes; skips until the next scan', async () => {
      const clip = await fragmentedRecording(path.join(videos, 'Clips', 'Arena', 'clip.mp4'), 1);
      const doomed = await file('Videos/Replay Buffers/doomed.mp4');
      const skipped = await file('Videos/Highlights/skipped.mp4');
      const recovery = service();
      const found = await recovery.scan();
      const idOf = (target: string) => found.find((candidate) => candidate.filePath === target)!.recoveryId;

      await recovery.confirm({ recoveryId: idOf(clip), action: 'recover', gameOverride: '' });
      expect(library.list()[0]).to.deep.include({ type: 'Clip', game: 'Arena', filePath: clip.replaceAll('\\', '/') });
      expect(needsRemux(await readMp4Layout(clip))).to.equal(false);

      await recovery.confirm({ recoveryId: idOf(doomed), action: 'delete' });
      expect(existsSync(doomed)).to.equal(false);
      expect(refreshes).to.equal(1);

      await recovery.confirm({ recoveryId: idOf(skipped), action: 'skip' });
      expect(existsSync(skipped)).to.equal(true);
      expect(recovery.pending).to.deep.equal([]);
      expect((await service().scan()).map((candidate) => candidate.filePath)).to.deep.equal([skipped]);
    });

    it('keeps an unreadable file offered and says why', async () => {
      const broken = await file('Videos/Full Sessions/Arena/broken.mp4', 4096);
      const recovery = service();
      const [candidate] = await recovery.scan();
      const error = await commandRejection(recovery.confirm({ recoveryId: candidate!.recoveryId, action: 'recover' }));
      expect(error.code).to.equal('Failed');
      expect(error.message).to.include(broken).and.include('left where it is');
      expect(existsSync(broken)).to.equal(true);
      expect(await readdir(path.dirname(broken))).to.deep.equal(['broken.mp4']);
      expect(recovery.pending.map((pending) => pending.recoveryId)).to.deep.equal([candidate!.recoveryId]);
      expect(events.of('ShowModal')[0]).to.deep.include({ title: 'Video not recovered', type: 'error' });
      expect(library.list()).to.deep.equal([]);
    });
  });
});
