// The library with the real service: rename, delete and bookmarks persist across a restart, a batch
// delete sends one State, a highlight is made from a session's bookmarks, the library follows a new
// content folder, every path-taking command refuses paths outside the content folder, and media is
// served with byte ranges, only from the library.
import 'reflect-metadata';
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseDuration, type CommandName, type ContentItem, type State } from '@keyframe/core/protocol';
import { ProtocolClient } from '@keyframe/integration-testkit';
import { serviceUnderTest } from '../kit/service-under-test.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every file below `folder`, relative, with its size: a snapshot to compare after refused commands. */
async function snapshot(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  const files = await Promise.all(
    entries
      .filter((entry) => !entry.isDirectory())
      .map(async (entry) => {
        const file = path.join(entry.parentPath, entry.name);
        const body = entry.isSymbolicLink()
          ? 'link'
          : await readFile(file, 'utf8').then(
              (text) => text.length,
              () => -1,
            );
        return `${path.relative(folder, file)}:${body}`;
      }),
  );
  return files.sort();
}

describe('content library', function () {
  this.timeout(90000);
  const under = serviceUnderTest();

  const configure = async (frontend: ProtocolClient) => {
    frontend.send('UpdateSettings', {
      resolution: '720p',
      frameRate: 30,
      recordingMode: 'Session',
      autoGenerateHighlights: false,
      contentFolder: under.content.path,
    });
    await frontend.next('Settings');
  };
  /** Records about two seconds; `during` runs while recording. Resolves with the new item. */
  const record = async (frontend: ProtocolClient, during?: (state: State) => Promise<void>): Promise<ContentItem> => {
    frontend.send('StartRecording');
    const running = await frontend.next('State', (state) => state.recording !== null && state.preRecording === null, 15000);
    await during?.(running);
    await sleep(2000);
    frontend.send('StopRecording');
    const isNew = (item: ContentItem) => item.filePath === running.recording!.filePath;
    const saved = await frontend.next('State', (state) => state.recording === null && state.content.some(isNew), 20000);
    return saved.content.find(isNew)!;
  };
  const rejected = async (frontend: ProtocolClient, method: CommandName) => {
    const rejection = await frontend.next('CommandRejected');
    expect(rejection.method).to.equal(method);
    return rejection;
  };
  const sidecars = () => path.join(under.data.path, 'cache', 'metadata', 'Full Sessions');

  it('renames, bookmarks and deletes, and all of it persists across a restart', async () => {
    const { client: frontend } = await under.connect();
    await configure(frontend);
    const first = await record(frontend);
    const second = await record(frontend);

    frontend.send('RenameContent', { FileName: first.fileName, ContentType: 'Session', Title: 'Ace: round 1' });
    const renamed = (await frontend.next('State', (state) => state.content.some((item) => item.title === 'Ace: round 1'))).content.find(
      (item) => item.id === first.id,
    )!;
    expect(renamed).to.deep.include({ fileName: 'Ace round 1', filePath: `${path.posix.dirname(first.filePath)}/Ace round 1.mp4` });
    expect(existsSync(first.filePath)).to.equal(false);
    expect(existsSync(renamed.filePath)).to.equal(true);

    frontend.send('AddBookmark', { FilePath: renamed.filePath, ContentType: 'Session', Type: 'Kill', Time: '00:00:01.250', Id: 4242 });
    frontend.send('AddBookmark', { FilePath: renamed.filePath, ContentType: 'Session', Type: 'Manual', Time: '00:00:00.500', Id: 77 });
    await frontend.next('State', (state) => state.content.find((item) => item.id === first.id)!.bookmarks.length === 2);
    frontend.send('DeleteBookmark', { FilePath: renamed.filePath, ContentType: 'Session', Id: 77 });
    await frontend.next('State', (state) => state.content.find((item) => item.id === first.id)!.bookmarks.length === 1);

    frontend.send('DeleteContent', { FileName: second.fileName, ContentType: 'Session' });
    await frontend.next('State', (state) => state.content.length === 1);
    expect(existsSync(second.filePath)).to.equal(false);
    expect(await readdir(sidecars())).to.deep.equal([`${first.id}.json`]);
    expect(await readdir(path.join(under.data.path, 'cache', 'thumbnails', 'Full Sessions'))).to.deep.equal([`${first.id}.jpeg`]);
    expect(await readdir(path.join(under.data.path, 'cache', 'waveforms', 'Full Sessions'))).to.deep.equal([`${first.id}.peaks.json`]);
    expect(frontend.events.filter((event) => event.method === 'CommandRejected')).to.deep.equal([]);

    await under.process.stop();
    const { state } = await under.connect();
    expect(state.content).to.have.length(1);
    expect(state.content[0]).to.deep.include({
      id: first.id,
      title: 'Ace: round 1',
      fileName: 'Ace round 1',
      filePath: renamed.filePath,
      bookmarks: [{ id: 4242, type: 'Kill', subtype: null, time: '00:00:01.2500000', aiRating: null }],
    });
  });

  it('deletes several items with one State; a bookmark during the recording gives BookmarkCreated', async () => {
    const { client: frontend } = await under.connect();
    await configure(frontend);
    const first = await record(frontend, async (running) => {
      frontend.send('AddBookmark', {
        FilePath: running.recording!.filePath!,
        ContentType: 'Session',
        Type: 'Goal',
        Time: '00:00:00.100',
        Id: 9,
      });
      await frontend.next('BookmarkCreated');
      const shown = await frontend.next('State', (state) => (state.recording?.bookmarks.length ?? 0) === 1);
      expect(shown.recording!.bookmarks[0]).to.deep.include({ id: 9, type: 'Goal' });
    });
    expect(first.bookmarks.map((bookmark) => bookmark.id)).to.deep.equal([9]);
    const second = await record(frontend);
    await sleep(300);
    frontend.skipReceived();
    const mark = frontend.events.length;

    frontend.send('DeleteMultipleContent', {
      Items: [
        { FileName: first.fileName, ContentType: 'Session' },
        { FileName: second.fileName, ContentType: 'Session' },
      ],
    });
    const after = await frontend.next('State');
    expect(after.content).to.deep.equal([]);
    await sleep(1500);
    // One State carries the deletion; the storage monitor may follow with the folder's new size.
    const states = frontend.events
      .slice(mark)
      .filter((event) => event.method === 'State')
      .map((event) => event.content as State);
    expect(states.filter((next) => next.content.length > 0)).to.deep.equal([]);
    const withoutSize = ({ currentFolderSizeGb: _size, recordingDriveFreeGb: _free, recordingDriveUsedGb: _used, ...rest }: State) => rest;
    expect(
      states.slice(1).every((next) => JSON.stringify(withoutSize(next)) === JSON.stringify(withoutSize(states[0]!))),
      JSON.stringify(states.map((next) => next.currentFolderSizeGb)),
    ).to.equal(true);
    expect(existsSync(first.filePath) || existsSync(second.filePath)).to.equal(false);
    expect(await readdir(sidecars())).to.deep.equal([]);
    expect(existsSync(path.dirname(first.filePath))).to.equal(false);
  });

  it('refuses traversal, absolute paths elsewhere and symbolic links out of the content folder in every path-taking command, touching nothing', async () => {
    const { client: frontend } = await under.connect();
    await configure(frontend);
    const item = await record(frontend);
    const outside = path.join(under.data.path, 'outside.mp4');
    await writeFile(outside, 'not yours');
    const folder = path.posix.dirname(item.filePath);
    await symlink(outside, path.join(folder, 'link.mp4'));
    const bad = [
      `${folder}/../../../outside.mp4`,
      outside.replaceAll('\\', '/'),
      '/etc/passwd',
      `${folder}/link.mp4`,
      'Full Sessions/x.mp4',
    ];
    const before = [await snapshot(under.content.path), await snapshot(under.data.path)];

    for (const FilePath of bad) {
      const commands: [CommandName, () => void][] = [
        ['AddBookmark', () => frontend.send('AddBookmark', { FilePath, ContentType: 'Session', Type: 'Kill', Time: '00:00:01', Id: 1 })],
        ['DeleteBookmark', () => frontend.send('DeleteBookmark', { FilePath, ContentType: 'Session', Id: 1 })],
        ['OpenFileLocation', () => frontend.send('OpenFileLocation', { FilePath })],
        ['CopyFileToClipboard', () => frontend.send('CopyFileToClipboard', { FilePath })],
      ];
      for (const [method, send] of commands) {
        send();
        const rejection = await rejected(frontend, method);
        expect(['NotAllowed', 'NotFound'], `${method} ${FilePath}: ${rejection.message}`).to.include(rejection.code);
      }
    }
    for (const FileName of ['../../outside', '/etc/passwd', 'link']) {
      frontend.send('RenameContent', { FileName, ContentType: 'Session', Title: 'x' });
      expect((await rejected(frontend, 'RenameContent')).code).to.equal('NotFound');
      frontend.send('DeleteContent', { FileName, ContentType: 'Session' });
      expect((await rejected(frontend, 'DeleteContent')).code).to.equal('NotFound');
      frontend.send('DeleteMultipleContent', {
        Items: [
          { FileName: item.fileName, ContentType: 'Session' },
          { FileName, ContentType: 'Session' },
        ],
      });
      expect((await rejected(frontend, 'DeleteMultipleContent')).code).to.equal('NotFound');
    }
    expect(
      [await snapshot(under.content.path), await snapshot(under.data.path)].map((files) =>
        files.filter((file) => !file.startsWith('logs')),
      ),
    ).to.deep.equal(before.map((files) => files.filter((file) => !file.startsWith('logs'))));
    expect(await readFile(outside, 'utf8')).to.equal('not yours');

    // A title is only ever a file name in the item's own folder.
    frontend.send('RenameContent', { FileName: item.fileName, ContentType: 'Session', Title: '../../../escaped' });
    const renamed = (await frontend.next('State', (state) => state.content[0]?.title === '../../../escaped')).content[0]!;
    expect(renamed.filePath).to.equal(`${folder}/escaped.mp4`);
    expect(await readdir(folder)).to.have.members(['escaped.mp4', 'link.mp4']);
  });

  it('serves videos with byte ranges, waveforms and thumbnails from the library only', async () => {
    const { client: frontend, state } = await under.connect();
    await configure(frontend);
    const item = await record(frontend);
    const base = under.process.url.replace(/\/$/, '');
    const get = (route: string, input: string, headers: Record<string, string> = {}, extra = '') =>
      fetch(`${base}${route}?input=${encodeURIComponent(input)}${extra}`, { headers });
    const video = await readFile(item.filePath);
    const length = video.length;

    const whole = await get('/api/content', item.filePath);
    expect(whole.status).to.equal(200);
    expect(whole.headers.get('content-type')).to.equal('video/mp4');
    expect(whole.headers.get('accept-ranges')).to.equal('bytes');
    expect(Buffer.from(await whole.arrayBuffer()).equals(video)).to.equal(true);
    const ranges: [string, number, number][] = [
      ['bytes=0-1', 0, 1],
      ['bytes=1000-', 1000, length - 1],
      ['bytes=-777', length - 777, length - 1],
      ['bytes=5-99999999', 5, length - 1],
    ];
    for (const [range, start, end] of ranges) {
      const part = await get('/api/content', item.filePath, { Range: range }, '&type=session');
      expect(part.status, range).to.equal(206);
      expect(part.headers.get('content-range'), range).to.equal(`bytes ${start}-${end}/${length}`);
      expect(Buffer.from(await part.arrayBuffer()).equals(video.subarray(start, end + 1)), range).to.equal(true);
    }
    for (const range of [`bytes=${length}-`, 'bytes=9-3', 'bytes=0-1,4-5']) {
      const refused = await get('/api/content', item.filePath, { Range: range });
      expect(refused.status, range).to.equal(416);
      expect(refused.headers.get('content-range')).to.equal(`bytes */${length}`);
    }

    const cache = state.cacheFolder;
    const waveform = await get('/api/content', `${cache}/waveforms/Full Sessions/${item.id}.peaks.json`, {}, '&type=session');
    expect(waveform.status).to.equal(200);
    expect(((await waveform.json()) as { version: number }).version).to.equal(2);
    const thumbnailFile = `${cache}/thumbnails/Full Sessions/${item.id}.jpeg`;
    const thumbnail = await get('/api/thumbnail', thumbnailFile);
    expect(thumbnail.status).to.equal(200);
    expect(thumbnail.headers.get('content-type')).to.equal('image/jpeg');
    expect(Buffer.from(await thumbnail.arrayBuffer()).equals(await readFile(thumbnailFile))).to.equal(true);
    const frame = await get('/api/thumbnail', item.filePath, {}, '&time=1.5');
    expect(frame.status).to.equal(200);
    const jpeg = Buffer.from(await frame.arrayBuffer());
    expect(jpeg.subarray(0, 2).toString('hex')).to.equal('ffd8');
    expect(jpeg.readUInt16BE(jpeg.indexOf(Buffer.from([0xff, 0xc0])) + 7)).to.equal(320);

    const outside = path.join(under.data.path, 'outside.mp4');
    await writeFile(outside, 'not yours');
    await symlink(outside, path.join(path.dirname(item.filePath), 'link.mp4'));
    const refusedInputs: [string, string][] = [
      ['/api/content', outside],
      ['/api/content', '/etc/passwd.mp4'],
      ['/api/content', `${path.posix.dirname(item.filePath)}/link.mp4`],
      ['/api/content', `${path.posix.dirname(item.filePath)}/../../../outside.mp4`],
      ['/api/content', `${under.data.path}/settings.json`],
      ['/api/content', `${cache}/metadata/Full Sessions/${item.id}.json`],
      ['/api/content', 'relative.mp4'],
      ['/api/thumbnail', `${cache}/../outside.jpeg`],
      ['/api/thumbnail', outside.replace(/\.mp4$/, '.jpeg')],
    ];
    for (const [route, input] of refusedInputs) expect((await get(route, input)).status, input).to.equal(404);
    expect((await get('/api/content', `${under.data.path}/settings.txt`)).status).to.equal(400);
    expect((await get('/api/thumbnail', outside, {}, '&time=1')).status).to.equal(404);
  });

  it("makes a highlight from a session's bookmarks, then moves the library into a new content folder", async () => {
    const { client: frontend } = await under.connect();
    await configure(frontend);
    const session = await record(frontend);
    frontend.send('AddBookmark', { FilePath: session.filePath, ContentType: 'Session', Type: 'Kill', Time: '00:00:01', Id: 31 });
    await frontend.next('State', (state) => state.content.some((item) => item.bookmarks.some((bookmark) => bookmark.id === 31)));

    frontend.send('CreateAiClip', { FileName: session.fileName });
    expect(await frontend.next('AiProgress', (event) => event.status !== 'processing', 60000)).to.deep.include({
      status: 'done',
      progress: 100,
    });
    const progress = frontend.all('AiProgress');
    expect(progress.every((event) => event.content.fileName === session.fileName && event.id === progress[0]!.id)).to.equal(true);
    const withHighlight = await frontend.until('State', (state) => state.content.some((item) => item.type === 'Highlight'), 10000);
    const highlight = withHighlight.content.find((item) => item.type === 'Highlight')!;
    // The kill's window (8 s before, 3 s after) covers the whole two-second session.
    expect(parseDuration(highlight.duration)).to.be.closeTo(parseDuration(session.duration)!, 0.2);
    expect(existsSync(highlight.filePath)).to.equal(true);

    const moved = path.join(under.data.path, 'new videos');
    frontend.send('UpdateSettings', { contentFolder: moved });
    await frontend.until('Settings', (settings) => path.resolve(settings.contentFolder) === moved, 10000);
    frontend.send('MigrateContent');
    expect(await frontend.next('ContentMigrationProgress', (event) => event.status !== 'migrating', 30000)).to.deep.include({
      status: 'done',
      progress: 100,
    });
    const after = await frontend.until('State', (state) => state.content.every((item) => item.filePath.startsWith(`${moved}/`)), 10000);
    expect(after.content.map((item) => path.relative(moved, item.filePath)).sort()).to.deep.equal(
      [path.relative(under.content.path, highlight.filePath), path.relative(under.content.path, session.filePath)].sort(),
    );
    for (const item of after.content) expect(existsSync(item.filePath)).to.equal(true);
    expect(existsSync(session.filePath)).to.equal(false);
    expect(frontend.schemaViolations).to.deep.equal([]);
  });
});
