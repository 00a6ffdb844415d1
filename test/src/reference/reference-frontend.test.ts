// Conformance with the reference frontend (issue 21), written from protocol-gaps.md §3, §8–§10: one real
// service started in the reference dialect with its media port, a client that speaks exactly as that
// frontend does (its commands, the fields it reads, the media URLs it builds, fetched with the page's
// Origin), then a SPEC client on the same service that sees SPEC's names only. The steps share one library
// and run in order: each builds on the items the ones before made.
import 'reflect-metadata';
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, stat, truncate, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { INTEGRATION_KEYS } from '@keyframe/core/protocol';
import { generateVideo } from '@keyframe/core/testing';
import { createTempFolder, ProtocolClient, ServiceProcess, type TempFolder } from '@keyframe/integration-testkit';
import { ffmpegPath } from '../kit/processes.js';
import { TusPlatform, type PlatformTokens } from '../kit/tus-platform.js';
import {
  bookmarkTime,
  keyPaths,
  pageMediaRequest,
  REFERENCE_INTEGRATION_KEYS,
  REFERENCE_TYPE_FOLDERS,
  ReferenceClient,
  type MediaAnswer,
  type PageRequest,
  type ReferenceContent,
  type ReferenceSegment,
  type ReferenceSettings,
  type ReferenceState,
  type WaveformPeaks,
} from './reference-client.js';

/** The reference desktop host serves the page from the first free port of 44040–44139; allowed as docs/reference-frontend.md says. */
const HOST_ORIGINS = 'http://localhost:44040-44139';
const PAGE_ORIGIN = 'http://localhost:44050';
/** A site on the web, and a page of another local program: neither may read the library. */
const FOREIGN_ORIGINS = ['https://evil.example', 'http://localhost:8080'];

/** SPEC's names of §2 and the fields SPEC leaves open: a reference frame must not carry them. */
const SPEC_ONLY_NAMES = [
  'hasLoadedCaptureEngine',
  'availableCaptureEngineVersions',
  'CaptureEngineDownloadProgress',
  'gameDatabaseId',
  'GameDatabaseId',
  'selectedCaptureEngineVersion',
];
/** The reference frontend's names: a SPEC frame must carry none of them. */
const REFERENCE_ONLY_NAMES = [
  'hasLoadedObs',
  'availableOBSVersions',
  'ObsDownloadProgress',
  'igdbId',
  'IgdbId',
  'selectedOBSVersion',
  ...REFERENCE_INTEGRATION_KEYS,
];

/** The fields of a content item the client reads (§7.3). */
const CONTENT_FIELDS = [
  'type',
  'title',
  'game',
  'bookmarks',
  'fileName',
  'filePath',
  'fileSize',
  'fileSizeKb',
  'duration',
  'createdAt',
  'aiAnalysis',
  'uploadId',
  'igdbId',
  'audioTrackNames',
  'isImported',
];

const ORPHAN = '2026-11-20_10-00-00.mp4';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const run = promisify(execFile);

/** 3 s of small frames at a high bitrate: its compressed copy is smaller. */
async function highBitrateVideo(target: string): Promise<void> {
  const input = ['-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=30:duration=3', '-f', 'lavfi', '-i', 'sine=frequency=330:duration=3'];
  const encode = ['-c:v', 'libx264', '-preset', 'ultrafast', '-qp', '4', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest'];
  await run(ffmpegPath(), ['-v', 'error', ...input, ...encode, '-y', target]);
}

/** An update channel that offers only an older version: a check finds release notes, nothing to download. */
async function olderReleaseFeed(): Promise<Server> {
  const feed = {
    releases: [
      {
        version: '0.0.1',
        channel: 'stable',
        url: 'packages/keyframe-0.0.1.tar.gz',
        size: 1,
        sha256: '0'.repeat(64),
        releaseDate: '2026-11-01T12:00:00Z',
        notes: '## 0.0.1\n- First',
      },
    ],
  };
  // Answered after a moment, so that the State with isCheckingForUpdates is not coalesced away.
  const server = createServer((_request, response) =>
    setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(feed)), 300),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** Keys of SPEC's names (or its integration keys in Settings) anywhere in the frames the page received. */
function specNamesIn(page: ReferenceClient): string[] {
  return page.frames.flatMap((frame) => {
    const method = frame.method ?? '?';
    const names = SPEC_ONLY_NAMES.includes(method) ? [method] : [];
    const paths = keyPaths(frame.content, method);
    const integrations =
      method === 'Settings' ? paths.filter((at) => INTEGRATION_KEYS.some((key) => at === `Settings.gameIntegrations.${key}`)) : [];
    return [...names, ...paths.filter((at) => SPEC_ONLY_NAMES.includes(at.split('.').at(-1)!)), ...integrations];
  });
}

const allowsPage = (answer: MediaAnswer) => ['*', PAGE_ORIGIN].includes(String(answer.headers['access-control-allow-origin']));
const isJpeg = (answer: MediaAnswer) => answer.body.subarray(0, 2).toString('hex') === 'ffd8';

describe('the reference frontend against Keyframe (protocol-gaps §8–§10)', function () {
  this.timeout(60_000);
  let data: TempFolder;
  let feed: Server;
  let platform: TusPlatform;
  /** The session the page holds once signed in: it sends `Login` again on every open. */
  let session: PlatformTokens | undefined;
  let service: ServiceProcess;
  let page: ReferenceClient;
  let mediaPort: number;
  const sources = { one: '', two: '', huge: '' };
  /** Items the steps made, by role. */
  const library: Record<string, ReferenceContent> = {};

  /** The desktop host points the page at `ws://localhost:<port>`; the page asks for no dialect. */
  const pageSocketUrl = () => service.url.replace(/^http:\/\/127\.0\.0\.1/, 'ws://localhost');
  /** The page's media URL: `http://localhost:<media port><route>?input=enc(input)&…` (§10). */
  const mediaUrl = (route: '/api/content' | '/api/thumbnail', input: string, extra = '') =>
    `http://localhost:${mediaPort}${route}?input=${encodeURIComponent(input)}${extra}`;
  const media = (url: string, request: PageRequest) => pageMediaRequest(url, PAGE_ORIGIN, request);
  /** The waveform and card thumbnail of an item at the paths the client builds from `State.cacheFolder` and its fileName. */
  const artwork = (state: ReferenceState, item: ReferenceContent) => {
    const folder = REFERENCE_TYPE_FOLDERS[item.type];
    const waveform = `${state.cacheFolder}/waveforms/${folder}/${item.fileName}.peaks.json`;
    const thumbnail = `${state.cacheFolder}/thumbnails/${folder}/${item.fileName}.jpeg`;
    return Promise.all([
      media(mediaUrl('/api/content', waveform, `&type=${item.type.toLowerCase()}`), { as: 'fetch' }),
      media(mediaUrl('/api/thumbnail', thumbnail), { as: 'element' }),
    ]);
  };
  const expectArtwork = async (state: ReferenceState, item: ReferenceContent) => {
    const [waveform, thumbnail] = await artwork(state, item);
    expect([waveform.status, waveform.headers['content-type']], `waveform of ${item.fileName}`).to.deep.equal([200, 'application/json']);
    expect(allowsPage(waveform), 'the page may read the waveform').to.equal(true);
    const peaks = JSON.parse(waveform.body.toString()) as WaveformPeaks;
    expect(peaks).to.deep.include({ version: 2, channels: 1, sample_rate: 11025, bits: 8 });
    expect(peaks.length).to.equal(peaks.data.length);
    expect([thumbnail.status, thumbnail.headers['content-type'], isJpeg(thumbnail)], `thumbnail of ${item.fileName}`).to.deep.equal([
      200,
      'image/jpeg',
      true,
    ]);
  };
  const latestState = () => page.all('State').at(-1)!;
  const latestSettings = () => page.all('Settings').at(-1)!;
  const itemNamed = (state: ReferenceState, fileName: string) => state.content.find((item) => item.fileName === fileName);
  /** A round trip: whatever the commands sent before caused has been sent by now (unless still running). */
  const settle = async () => {
    page.ping();
    await page.next('pong');
  };

  before(async function () {
    this.timeout(30_000);
    data = await createTempFolder();
    const downloads = path.join(data.path, 'downloads');
    await mkdir(downloads, { recursive: true });
    sources.one = path.join(downloads, 'match one.mp4');
    sources.two = path.join(downloads, 'match two.mp4');
    sources.huge = path.join(downloads, 'huge.mp4');
    // An interrupted recording in the default cache folder: offered in RecoveryPrompt after NewConnection.
    const orphan = path.join(data.path, 'cache', 'recordings', ORPHAN);
    await mkdir(path.dirname(orphan), { recursive: true });
    await Promise.all([
      generateVideo(ffmpegPath(), orphan, { seconds: 2, width: 320, height: 180 }),
      generateVideo(ffmpegPath(), sources.one, { seconds: 8, width: 320, height: 180 }),
      highBitrateVideo(sources.two),
      // Larger than the default storage limit (100 GB) by its size alone, without taking room on the disk.
      writeFile(sources.huge, '').then(() => truncate(sources.huge, 101 * 1024 ** 3)),
    ]);
    feed = await olderReleaseFeed();
    platform = await TusPlatform.start({ processingPolls: 1 });
    service = await ServiceProcess.start({
      dataFolder: data.path,
      legacyPort: 'off',
      env: {
        ...platform.environment(),
        KEYFRAME_CAPTURE: 'synthetic',
        KEYFRAME_DIALECT: 'reference',
        // Any free port (the reference frontend's 2222 may be taken on a test machine); the start-up output names it.
        KEYFRAME_REFERENCE_MEDIA_PORT: '0',
        KEYFRAME_ALLOWED_ORIGINS: HOST_ORIGINS,
        KEYFRAME_UPDATE_FEED_URL: `http://127.0.0.1:${(feed.address() as AddressInfo).port}/feed.json`,
      },
    });
    mediaPort = Number(/Media:\s+http:\/\/127\.0\.0\.1:(\d+)\//.exec(service.printed)?.[1]);
    expect(mediaPort, `the media port in the start-up output:\n${service.printed}`).to.be.above(0);
    page = await ReferenceClient.open(pageSocketUrl(), PAGE_ORIGIN);
  });

  after(async () => {
    await page?.close();
    await service?.stop();
    await new Promise((resolve) => (feed ? feed.close(resolve) : resolve(undefined)));
    await platform?.stop();
    await data?.remove();
  });

  describe('reference dialect', () => {
    it('answers NewConnection with Settings, State, GameList, AppVersion, then ReleaseNotes, in the names the client reads; ping gets pong', async () => {
      const settings = await page.next('Settings');
      const state = await page.next('State');
      const games = await page.next('GameList');
      const version = await page.next('AppVersion');
      const notes = await page.next('ReleaseNotes', () => true, 10_000);

      expect(settings).to.have.property('selectedOBSVersion');
      expect(settings.disableWindowsGameMode).to.equal(false);
      expect(Object.keys(settings.gameIntegrations)).to.include.members([...REFERENCE_INTEGRATION_KEYS]);
      for (const key of REFERENCE_INTEGRATION_KEYS) expect(settings.gameIntegrations[key], key).to.deep.include({ enabled: true });

      expect(state.hasLoadedObs).to.be.a('boolean');
      expect(state.availableOBSVersions).to.be.an('array');
      expect(state.content).to.be.an('array');
      expect(path.isAbsolute(state.cacheFolder) && !state.cacheFolder.includes('\\'), state.cacheFolder).to.equal(true);
      for (const field of ['currentFolderSizeGb', 'recordingDriveUsedGb', 'recordingDriveFreeGb', 'isCheckingForUpdates'])
        expect(state, field).to.have.property(field);

      expect(games).to.be.an('array').that.is.not.empty;
      for (const game of games) expect(game).to.include.keys('name', 'executables', 'icon', 'igdbId');
      expect(version.version).to.be.a('string').that.is.not.empty;
      expect(version.canSelfUpdate).to.be.a('boolean');
      expect(notes.releaseNotesList).to.be.an('array');

      page.ping();
      expect(await page.next('pong')).to.deep.equal({});
    });

    it('offers the interrupted recording in RecoveryPrompt and recovers it with RecoveryConfirm', async () => {
      const prompt = await page.until('RecoveryPrompt', (content) => content.files.some((file) => file.fileName === ORPHAN), 10_000);
      const file = prompt.files.find((offered) => offered.fileName === ORPHAN)!;
      expect(file).to.include.keys('recoveryId', 'fileName', 'filePath', 'fileSize', 'typeLabel', 'detectedGame');
      expect(file).to.deep.include({ typeLabel: 'Session Recording', detectedGame: null });
      expect(file.fileSize).to.match(/^\d+\.\d\d MB$/);
      page.send('RecoveryConfirm', { recoveryId: file.recoveryId, action: 'recover', gameOverride: 'Arena' });
      const state = await page.until('State', (next) => next.content.some((item) => item.game === 'Arena'), 20_000);
      const recovered = state.content.find((item) => item.game === 'Arena')!;
      expect(recovered).to.include.keys(...CONTENT_FIELDS);
      expect(recovered).to.deep.include({ type: 'Session', fileName: path.basename(ORPHAN, '.mp4'), igdbId: null });
    });

    it('takes the whole Settings object back (one gameIntegrations entry changed, disableWindowsGameMode, a game with igdbId) and echoes it', async () => {
      const game = { name: 'Arena', paths: ['/opt/games/arena/arena'], igdbId: 1234, icon: null, customIcon: null, record: true };
      page.send('UpdateSettings', { ...latestSettings(), resolution: '720p', frameRate: 30, disableWindowsGameMode: true, games: [game] });
      const echoed = await page.next('Settings', (settings) => settings.disableWindowsGameMode === true, 10_000);
      expect(echoed).to.deep.include({ resolution: '720p', frameRate: 30 });
      expect(echoed.games).to.be.an('array').with.length(1);
      expect((echoed.games as Record<string, unknown>[])[0]).to.deep.include(game);

      // The integrations section: the object as held, with one entry changed.
      const held: ReferenceSettings = { ...latestSettings() };
      page.send('UpdateSettings', { ...held, gameIntegrations: { ...held.gameIntegrations, counterStrike2: { enabled: false } } });
      const after = await page.next('Settings', (settings) => settings.gameIntegrations.counterStrike2?.enabled === false, 10_000);
      for (const key of REFERENCE_INTEGRATION_KEYS.filter((other) => other !== 'counterStrike2'))
        expect(after.gameIntegrations[key], key).to.deep.include({ enabled: true });
      expect(Object.keys(after.gameIntegrations).filter((key) => (INTEGRATION_KEYS as readonly string[]).includes(key))).to.deep.equal([]);
      expect(after.disableWindowsGameMode).to.equal(true);
    });

    it('imports with sectionId, ImportProgress counting currentFileIndex from 1 as that client does', async () => {
      page.send('ImportFile', { sectionId: 'sessions', FilePaths: [sources.one, sources.two] });
      const finished = await page.next('ImportProgress', (progress) => progress.status === 'done' || progress.status === 'error', 30_000);
      const state = await page.until('State', (next) => ['match one', 'match two'].every((name) => itemNamed(next, name)), 10_000);
      library.one = itemNamed(state, 'match one')!;
      library.two = itemNamed(state, 'match two')!;
      for (const item of [library.one, library.two]) {
        expect(item, item.fileName).to.include.keys(...CONTENT_FIELDS);
        expect(item).to.deep.include({ type: 'Session', isImported: true, igdbId: null });
        expect(item.filePath).to.match(new RegExp(`/Full Sessions/[^/]+/${item.fileName}\\.mp4$`));
      }

      expect(finished).to.deep.include({
        status: 'done',
        progress: 100,
        totalFiles: 2,
        currentFileIndex: 2,
        message: 'Completed: 2 successful, 0 failed',
      });
      const job = page.all('ImportProgress').filter((progress) => progress.id === finished.id && progress !== finished);
      const indexes = (fileName: string) => [
        ...new Set(job.filter((progress) => progress.fileName === fileName).map((progress) => progress.currentFileIndex)),
      ];
      expect(indexes('match one')).to.deep.equal([1]);
      expect(indexes('match two')).to.deep.equal([2]);
    });

    it('serves the media URLs the client builds on the media port, with the CORS headers the page needs', async () => {
      const state = latestState();
      const item = library.one!;
      const size = (await stat(item.filePath)).size;

      // A <video> asks for `bytes=0-`; a range beyond the end is refused with the total.
      const player = await media(mediaUrl('/api/content', item.filePath, '&type=session'), {
        as: 'element',
        headers: { range: 'bytes=0-' },
      });
      expect([
        player.status,
        player.headers['content-type'],
        player.headers['accept-ranges'],
        player.headers['content-range'],
      ]).to.deep.equal([206, 'video/mp4', 'bytes', `bytes 0-${size - 1}/${size}`]);
      expect(player.body.length).to.equal(size);
      const beyond = await media(mediaUrl('/api/content', item.filePath), { as: 'fetch', headers: { range: `bytes=${size}-` } });
      expect([beyond.status, beyond.headers['content-range']]).to.deep.equal([416, `bytes */${size}`]);

      // Multi-track audio: the total size from Content-Range, which a cross-origin fetch reads only when it is exposed.
      const head = await media(mediaUrl('/api/content', item.filePath), { as: 'fetch', headers: { range: 'bytes=0-1' } });
      expect([head.status, head.headers['content-range'], head.body.length]).to.deep.equal([206, `bytes 0-1/${size}`, 2]);
      expect(allowsPage(head), JSON.stringify(head.headers)).to.equal(true);
      expect(String(head.headers['access-control-expose-headers']).toLowerCase()).to.include('content-range');

      const frame = await media(mediaUrl('/api/thumbnail', item.filePath, '&time=1.5'), { as: 'fetch' });
      expect([frame.status, frame.headers['content-type'], isJpeg(frame), allowsPage(frame)]).to.deep.equal([
        200,
        'image/jpeg',
        true,
        true,
      ]);
      await expectArtwork(state, item);

      // A ranged fetch may be preflighted: the answer lets the page send Range.
      const preflight = await media(mediaUrl('/api/content', item.filePath), {
        as: 'fetch',
        method: 'OPTIONS',
        headers: { 'access-control-request-method': 'GET', 'access-control-request-headers': 'range' },
      });
      expect(preflight.status, JSON.stringify(preflight.headers)).to.be.within(200, 204);
      expect(allowsPage(preflight)).to.equal(true);
      expect(String(preflight.headers['access-control-allow-headers']).toLowerCase()).to.include('range');

      // Other origins' pages get nothing; a path outside the library is refused as on the service's own port.
      for (const origin of FOREIGN_ORIGINS) {
        const foreign = await pageMediaRequest(mediaUrl('/api/content', item.filePath), origin, { as: 'fetch' });
        expect(foreign.status, origin).to.equal(403);
        expect(foreign.headers['access-control-allow-origin'], origin).to.not.be.oneOf(['*', origin]);
        const socket = await ReferenceClient.open(pageSocketUrl(), origin).then(
          async (opened) => `opened: ${JSON.stringify(await opened.close())}`,
          (error: Error) => error.message,
        );
        expect(socket, origin).to.equal('upgrade refused with HTTP 403');
      }
      const outside = path.join(data.path, 'downloads', 'match one.mp4');
      const [refused, onServicePort] = await Promise.all([
        media(mediaUrl('/api/content', outside), { as: 'fetch' }),
        fetch(`${service.url.replace(/\/$/, '')}/api/content?input=${encodeURIComponent(outside)}`),
      ]);
      expect(refused.status).to.equal(onServicePort.status).and.to.be.within(400, 404);
    });

    it('renames with RenameContent: the new fileName in State, its thumbnail and waveform found under it', async () => {
      const item = library.one!;
      page.send('RenameContent', { FileName: item.fileName, ContentType: 'Session', Title: 'Ace round' });
      const state = await page.next('State', (next) => next.content.some((listed) => listed.title === 'Ace round'), 10_000);
      const renamed = state.content.find((listed) => listed.title === 'Ace round')!;
      library.one = renamed;
      expect(renamed).to.deep.include({ fileName: 'Ace round', filePath: `${path.posix.dirname(item.filePath)}/Ace round.mp4` });
      await expectArtwork(state, renamed);
      const player = await media(mediaUrl('/api/content', renamed.filePath, '&type=session'), { as: 'element' });
      expect(player.status).to.equal(200);
    });

    it('adds a bookmark (Time as HH:MM:SS.mmm, a random Id) and deletes it', async () => {
      const item = library.one!;
      const id = randomInt(1, 2 ** 31 - 1);
      page.send('AddBookmark', { FilePath: item.filePath, Type: 'Manual', Time: bookmarkTime(1.25), ContentType: 'Session', Id: id });
      const marked = await page.next('State', (next) => itemNamed(next, item.fileName)!.bookmarks.some((bookmark) => bookmark.id === id));
      expect(itemNamed(marked, item.fileName)!.bookmarks).to.deep.include({
        id,
        type: 'Manual',
        subtype: null,
        time: '00:00:01.2500000',
        aiRating: null,
      });
      page.send('DeleteBookmark', { FilePath: item.filePath, ContentType: 'Session', Id: id });
      await page.next('State', (next) => itemNamed(next, item.fileName)!.bookmarks.length === 0);
    });

    it('creates a clip from a segment as the clip editor builds it; ClipProgress never goes back and ends at 100', async () => {
      const source = library.one!;
      // As the editor fills it from the item; an imported item has no igdbId, so a catalog id stands in.
      const segment: ReferenceSegment = {
        id: Date.now(),
        type: source.type,
        fileName: source.fileName,
        filePath: source.filePath,
        game: source.game,
        title: source.title,
        startTime: 1.5,
        endTime: 6.5,
        igdbId: 1234,
        mutedAudioTracks: [],
        audioTrackVolumes: {},
      };
      page.send('CreateClip', { OutputMode: 'combined', Segments: [segment] });
      const ours = (progress: { segments: { id: number }[] }) => progress.segments.some((echoed) => echoed.id === segment.id);
      const first = await page.next('ClipProgress', ours, 10_000);
      const done = await page.until(
        'ClipProgress',
        (progress) => progress.id === first.id && (progress.progress === 100 || progress.progress === -1),
        30_000,
      );
      const state = await page.until('State', (next) => next.content.some((item) => item.type === 'Clip'), 10_000);
      const clip = state.content.find((item) => item.type === 'Clip')!;
      library.clip = clip;
      expect(done.error).to.equal(undefined);
      const job = page.all('ClipProgress').filter((progress) => progress.id === first.id);
      const values = job.map((progress) => progress.progress);
      expect(values, values.join(', ')).to.deep.equal([...values].sort((a, b) => a - b));
      expect(values.at(-1)).to.equal(100);
      expect(job.every((progress) => progress.segments.map((echoed) => echoed.id).join() === String(segment.id))).to.equal(true);
      expect(done.segments[0]).to.deep.include({ igdbId: 1234, fileName: source.fileName, startTime: 1.5, endTime: 6.5 });
      expect(clip).to.deep.include({ title: 'Ace round', igdbId: 1234 });
      await expectArtwork(state, clip);
    });

    it('compresses with CompressVideo: CompressionProgress keyed by filePath, a `<name>_compressed` copy', async () => {
      const item = library.two!;
      page.send('CompressVideo', { FilePath: item.filePath });
      const done = await page.next(
        'CompressionProgress',
        (progress) => progress.filePath === item.filePath && progress.status !== 'compressing',
        40_000,
      );
      const isCopy = (listed: ReferenceContent) => listed.fileName.startsWith(item.fileName) && listed.fileName !== item.fileName;
      const state = await page.until('State', (next) => next.content.some(isCopy), 10_000);
      const copy = state.content.find(isCopy)!;
      library.compressed = copy;
      expect(done).to.deep.include({ filePath: item.filePath, progress: 100, status: 'done' });
      const values = page.all('CompressionProgress').map((progress) => progress.progress);
      expect(page.all('CompressionProgress').every((progress) => progress.filePath === item.filePath)).to.equal(true);
      expect(values, values.join(', ')).to.deep.equal([...values].sort((a, b) => a - b));
      expect(copy.fileName).to.equal(`${item.fileName}_compressed`);
      expect(copy.filePath).to.equal(`${path.posix.dirname(item.filePath)}/${item.fileName}_compressed.mp4`);
      expect(existsSync(item.filePath)).to.equal(true);
    });

    it('signs in with Login and uploads with UploadContent as the upload dialog builds it (IgdbId a string)', async () => {
      session = platform.issueTokens();
      page.send('Login', session);
      const item = library.two!;
      page.send('UploadContent', {
        FilePath: item.filePath,
        JWT: session.accessToken,
        Game: item.game,
        Title: 'Clutch round',
        Description: '',
        Visibility: 'Public',
        IgdbId: '1234',
      });
      const fileName = path.basename(item.filePath);
      const done = await page.next('UploadProgress', (progress) => progress.status === 'done' || progress.status === 'error', 20_000);
      // The reference's fields as it sent them, plus our `output` extension, which the reference frontend ignores.
      expect(done).to.deep.include({
        title: 'Clutch round',
        fileName,
        progress: 100,
        status: 'done',
        message: 'Upload completed successfully',
      });
      expect(done).to.have.nested.property('output.filePath', item.filePath);
      const values = page.all('UploadProgress').map((progress) => progress.progress);
      expect(values, values.join(', ')).to.deep.equal([...values].sort((a, b) => a - b));
      const stored = await platform.storedUpload(platform.uploadIds[0]!);
      expect(Object.values(stored!.metadata), JSON.stringify(stored!.metadata)).to.include.members(['Clutch round', '1234']);
      const state = await page.until('State', (next) => itemNamed(next, item.fileName)?.uploadId !== null, 10_000);
      expect(itemNamed(state, item.fileName)!.uploadId).to.be.a('string').that.is.not.empty;
    });

    it('records: StartRecording, the save (ReplayBufferSaveStarted before ReplayBufferSaved), StopRecording', async () => {
      page.send('StartRecording');
      const running = await page.next('State', (state) => state.recording !== null && state.preRecording === null, 15_000);
      expect(running.recording).to.include.keys('startTime', 'endTime', 'filePath', 'game', 'fileName', 'bookmarks', 'duration');
      await sleep(Math.max(0, Date.parse(running.recording!.startTime) + 2500 - Date.now()));
      page.send('SaveReplayBuffer');
      await page.next('ReplayBufferSaved', () => true, 15_000);
      page.send('StopRecording');
      const session = running.recording!.filePath;
      const stopped = await page.next(
        'State',
        (state) => state.recording === null && state.content.some((item) => item.filePath === session),
        20_000,
      );
      const buffer = stopped.content.find((item) => item.type === 'Buffer')!;
      library.buffer = buffer;
      expect(buffer, 'the saved replay').to.not.equal(undefined);
      await expectArtwork(stopped, buffer);
      const order = page.frames
        .map((frame) => frame.method)
        .filter((method) => method === 'ReplayBufferSaveStarted' || method === 'ReplayBufferSaved');
      expect(order).to.deep.equal(['ReplayBufferSaveStarted', 'ReplayBufferSaved']);
    });

    it('answers RefreshStorageStats with State, LoginWithDiscord at once with a failure and a dialog, CancelDiscordLogin with cancelled', async () => {
      page.skipReceived();
      page.send('RefreshStorageStats');
      const figures = await page.next('State', () => true, 3000);
      for (const field of ['currentFolderSizeGb', 'recordingDriveUsedGb', 'recordingDriveFreeGb'] as const)
        expect(figures[field], field).to.be.a('number');

      const asked = Date.now();
      page.send('LoginWithDiscord');
      const result = await page.next('DiscordLoginResult', () => true, 3000);
      expect(Date.now() - asked, 'answered at once').to.be.below(2000);
      expect(result.status).to.not.equal('success');
      expect(result).to.not.have.property('accessToken');
      const dialog = await page.next('ShowModal', () => true, 3000);
      expect(dialog.title).to.be.a('string').that.is.not.empty;
      expect(dialog.description).to.be.a('string').that.is.not.empty;
      expect(dialog.type).to.be.oneOf(['info', 'warning', 'error']);

      page.send('CancelDiscordLogin');
      expect(await page.next('DiscordLoginResult', () => true, 3000)).to.deep.include({ status: 'cancelled' });
    });

    it('moves nothing with MigrateContent when every item is in the content folder, and says so in ContentMigrationProgress', async () => {
      page.send('MigrateContent');
      const summary = await page.next('ContentMigrationProgress', (progress) => progress.status !== 'migrating', 10_000);
      expect(summary).to.include.keys('id', 'fileName', 'progress', 'status', 'totalFiles', 'currentFileIndex', 'message');
      expect(summary).to.deep.include({ progress: 100, status: 'done', message: 'Nothing to move.' });
    });

    it('applies a video preset, and checks for updates: isCheckingForUpdates, then the release notes', async () => {
      page.send('ApplyVideoPreset', { preset: 'standard' });
      const settings = await page.next('Settings', (next) => next.videoQualityPreset === 'standard');
      expect(settings).to.have.property('selectedOBSVersion');
      expect(Object.keys(settings.gameIntegrations)).to.include.members([...REFERENCE_INTEGRATION_KEYS]);

      page.send('CheckForUpdates');
      await page.next('State', (state) => state.isCheckingForUpdates, 10_000);
      await page.next('State', (state) => !state.isCheckingForUpdates, 10_000);
      const notes = await page.until('ReleaseNotes', (next) => next.releaseNotesList.length > 0, 10_000);
      expect(notes.releaseNotesList[0]).to.deep.include({ version: '0.0.1', releaseDate: '2026-11-01T12:00:00Z' });
      expect(Buffer.from(notes.releaseNotesList[0]!.base64Markdown, 'base64').toString()).to.equal('## 0.0.1\n- First');
    });

    it('holds an import above the storage limit for StorageWarningConfirm, and drops it when the warning is cancelled', async () => {
      page.send('ImportFile', { sectionId: 'replayBuffer', FilePaths: [sources.huge] });
      const warning = await page.next('StorageWarning', () => true, 10_000);
      expect(warning).to.include.keys('warningId', 'title', 'description', 'confirmText', 'cancelText', 'action', 'actionData');
      const { warningId, action, actionData } = warning;
      expect(action).to.equal('import');
      page.send('StorageWarningConfirm', { warningId, confirmed: false, action, actionData });
      await settle();
      await sleep(300);
      expect(page.all('ImportProgress').filter((progress) => progress.fileName === 'huge')).to.deep.equal([]);
      expect(latestState().content.some((item) => item.fileName === 'huge')).to.equal(false);
    });

    it('deletes one item with DeleteContent and two with DeleteMultipleContent; their media is gone', async () => {
      const { clip, compressed, buffer } = library as Required<typeof library>;
      page.send('DeleteContent', { FileName: clip.fileName, ContentType: 'Clip' });
      await page.next('State', (state) => !state.content.some((item) => item.filePath === clip.filePath), 10_000);
      expect((await media(mediaUrl('/api/content', clip.filePath, '&type=clip'), { as: 'element' })).status).to.equal(404);

      page.send('DeleteMultipleContent', {
        Items: [
          { FileName: compressed.fileName, ContentType: 'Session' },
          { FileName: buffer.fileName, ContentType: 'Buffer' },
        ],
      });
      const state = await page.next(
        'State',
        (next) => !next.content.some((item) => [compressed.filePath, buffer.filePath].includes(item.filePath)),
        10_000,
      );
      expect(existsSync(compressed.filePath) || existsSync(buffer.filePath)).to.equal(false);
      expect(state.content.map((item) => item.fileName)).to.include.members(['Ace round', 'match two']);
    });

    it('refused no command of the client, and sent no SPEC name in any frame: nothing to map', () => {
      expect(page.frames.filter((frame) => frame.method === 'CommandRejected').map((frame) => frame.content)).to.deep.equal([]);
      expect(page.frames.filter((frame) => frame.method === undefined).map((frame) => frame.text)).to.deep.equal([]);
      expect(specNamesIn(page)).to.deep.equal([]);
    });
  });

  describe('spec dialect on the same service', () => {
    it('gives a client with ?dialect=spec SPEC names only, takes its commands in SPEC names, and the page gets its names again when it reconnects', async () => {
      const spec = await ProtocolClient.connect(`${service.url}?dialect=spec`);
      try {
        const { settings, state } = await spec.handshake();
        await spec.next('ReleaseNotes', () => true, 10_000);
        expect(state).to.include.keys('hasLoadedCaptureEngine', 'availableCaptureEngineVersions');
        for (const item of state.content) expect(item).to.have.property('gameDatabaseId');
        expect(settings).to.have.property('selectedCaptureEngineVersion');
        // The change the page made to counterStrike2 is SPEC's tacticalShooter.
        expect(settings.gameIntegrations.tacticalShooter).to.deep.include({ enabled: false });
        expect(settings.games[0]).to.deep.include({ name: 'Arena', gameDatabaseId: 1234 });

        spec.send('UpdateSettings', {
          gameIntegrations: { ...settings.gameIntegrations, tacticalShooter: { enabled: true } },
          games: [{ ...settings.games[0]!, gameDatabaseId: 4321 }],
        });
        const echoed = await spec.next('Settings', (next) => next.gameIntegrations.tacticalShooter?.enabled === true, 10_000);
        expect(echoed.games[0]).to.deep.include({ gameDatabaseId: 4321 });

        const referenceNames = spec.events.flatMap((event) => [
          ...(REFERENCE_ONLY_NAMES.includes(event.method) ? [event.method] : []),
          ...keyPaths(event.content, event.method).filter((at) => REFERENCE_ONLY_NAMES.includes(at.split('.').at(-1)!)),
        ]);
        expect(referenceNames).to.deep.equal([]);
        expect(spec.schemaViolations).to.deep.equal([]);
      } finally {
        await spec.close();
      }

      // The page was replaced by that client; it reconnects as it does, and speaks its dialect again.
      await page.closed;
      page = await ReferenceClient.open(pageSocketUrl(), PAGE_ORIGIN, session);
      const settings = await page.next('Settings');
      const state = await page.next('State');
      expect(settings.gameIntegrations.counterStrike2).to.deep.include({ enabled: true });
      expect((settings.games as Record<string, unknown>[])[0]).to.deep.include({ igdbId: 4321 });
      expect(state).to.have.property('hasLoadedObs');
      await page.next('ReleaseNotes', () => true, 10_000);
      await settle();
      expect(page.frames.filter((frame) => frame.method === 'CommandRejected').map((frame) => frame.content)).to.deep.equal([]);
      expect(specNamesIn(page)).to.deep.equal([]);
    });
  });
});
