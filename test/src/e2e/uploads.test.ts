// Uploads with the real service against a real tus server on loopback: progress only goes up, the
// file arrives byte for byte, a platform restart and a service restart mid-upload both resume from
// what the server stored, cancel deletes the upload on the server, a refused token is renewed and
// the upload retried, and only library files can be uploaded.
import 'reflect-metadata';
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import type { ContentItem, EventContentMap } from '@keyframe/core/protocol';
import { ProtocolClient } from '@keyframe/integration-testkit';
import { serviceUnderTest } from '../kit/service-under-test.js';
import { longTestsSelected } from '../kit/test-length.js';
import { importUploadableVideo, TusPlatform } from '../kit/tus-platform.js';

const CHUNK_BYTES = 64 * 1024;
const UPLOAD_DEADLINE_MS = 60000;

type UploadProgress = EventContentMap['UploadProgress'];
const finished = (progress: UploadProgress) => progress.status === 'done' || progress.status === 'error';

describe('uploads', function () {
  this.timeout(180000);
  const under = serviceUnderTest();
  let platform: TusPlatform;
  beforeEach(async () => {
    platform = await TusPlatform.start({ processingPolls: 2 });
  });
  afterEach(() => platform.stop());

  const environment = (extra: NodeJS.ProcessEnv = {}) =>
    platform.environment({ KEYFRAME_UPLOAD_CHUNK_BYTES: String(CHUNK_BYTES), ...extra });
  const signedInWithVideo = async (extra: NodeJS.ProcessEnv = {}): Promise<{ frontend: ProtocolClient; item: ContentItem }> => {
    const frontend = await under.start(environment(extra));
    await frontend.handshake();
    frontend.send('Login', platform.issueTokens());
    const item = await importUploadableVideo(frontend, under.data.path, under.content.path);
    return { frontend, item };
  };
  const upload = (frontend: ProtocolClient, item: ContentItem) =>
    frontend.send('UploadContent', {
      FilePath: item.filePath,
      Title: 'Clutch round',
      Description: '1v4 on B',
      Visibility: 'Unlisted',
      JWT: 'ignored',
    });
  /** Each PATCH that reached the store started exactly where the store ended: nothing was sent twice. */
  const expectEveryByteStoredOnce = (size: number) => {
    let stored = 0;
    for (const patch of platform.tusRequests.filter((request) => request.method === 'PATCH')) {
      expect(patch.offsetSent).to.equal(stored);
      stored = patch.storedAfter!;
    }
    expect(stored).to.equal(size);
    expect(platform.tusRequests.filter((request) => request.method === 'POST')).to.have.length(1);
  };
  const expectArrivedIntact = async (item: ContentItem) => {
    const stored = await platform.storedUpload(platform.uploadIds[0]!);
    const original = await readFile(item.filePath);
    expect(stored).to.not.equal(undefined);
    expect(stored!.offset).to.equal(original.length);
    expect((await readFile(stored!.file)).equals(original)).to.equal(true);
  };

  it('uploads a library video: monotonic progress, identical bytes, metadata, and the public URL on the item', async () => {
    const { frontend, item } = await signedInWithVideo();
    upload(frontend, item);
    const done = await frontend.next('UploadProgress', finished, UPLOAD_DEADLINE_MS);
    const fileName = path.basename(item.filePath);
    expect(done).to.deep.equal({
      fileName,
      title: 'Clutch round',
      progress: 100,
      status: 'done',
      message: 'Upload completed successfully',
      output: { filePath: item.filePath, fileName: item.fileName, type: item.type, title: item.title },
    });

    const progress = frontend.all('UploadProgress');
    expect(progress[0]).to.deep.equal({ fileName, title: 'Clutch round', progress: 0, status: 'uploading', message: 'Starting upload...' });
    expect(progress.filter((event) => event.status === 'uploading').length).to.be.greaterThan(5);
    expect(progress.map((event) => event.status)).to.deep.equal(
      [...progress.map((event) => event.status)].sort((a, b) => order(a) - order(b)),
    );
    progress.slice(1).forEach((event, index) => expect(event.progress).to.be.at.least(progress[index]!.progress));
    expect(progress.filter((event) => event.status === 'processing')).to.deep.equal([
      { fileName, title: 'Clutch round', progress: 100, status: 'processing', message: 'Processing...' },
    ]);

    await expectArrivedIntact(item);
    expectEveryByteStoredOnce((await stat(item.filePath)).size);
    const id = platform.uploadIds[0]!;
    expect((await platform.storedUpload(id))!.metadata).to.deep.include({
      filename: fileName,
      filetype: 'video/mp4',
      title: 'Clutch round',
      description: '1v4 on B',
      visibility: 'Unlisted',
      game: item.game,
    });

    const state = await frontend.until('State', (next) => next.content.some((entry) => entry.uploadId === id), 10000);
    expect(state.content.find((entry) => entry.id === item.id)).to.deep.include({
      uploadId: id,
      uploadUrl: `${platform.origin}/watch/${id}`,
    });
    const sidecar = JSON.parse(
      await readFile(path.join(under.data.path, 'cache', 'metadata', 'Full Sessions', `${item.id}.json`), 'utf8'),
    ) as ContentItem;
    expect(sidecar).to.deep.include({ uploadId: id, uploadUrl: `${platform.origin}/watch/${id}` });
    expect(frontend.all('ShowModal')).to.deep.equal([]);
    expect(frontend.schemaViolations).to.deep.equal([]);
  });

  it('opens the public URL in the default browser when clipShowInBrowserAfterUpload is on', async () => {
    // A stand-in for xdg-open on the service's PATH records what it was asked to open.
    const bin = path.join(under.data.path, 'bin');
    const opened = path.join(under.data.path, 'opened.txt');
    await mkdir(bin, { recursive: true });
    await writeFile(path.join(bin, 'xdg-open'), `#!/bin/sh\necho "$@" >> '${opened}'\n`, { mode: 0o755 });
    const frontend = await under.start({ ...environment(), PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` });
    await frontend.handshake();
    frontend.send('UpdateSettings', { clipShowInBrowserAfterUpload: true });
    await frontend.next('Settings');
    frontend.send('Login', platform.issueTokens());
    const item = await importUploadableVideo(frontend, under.data.path, under.content.path);
    upload(frontend, item);
    expect(await frontend.next('UploadProgress', finished, UPLOAD_DEADLINE_MS)).to.deep.include({ status: 'done' });
    while (!existsSync(opened)) await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await readFile(opened, 'utf8')).trim()).to.equal(`${platform.origin}/watch/${platform.uploadIds[0]}`);
  });

  it('resumes from the stored offset when the platform restarts mid-upload', async () => {
    const { frontend, item } = await signedInWithVideo();
    platform.holdPatchesAfter(5);
    upload(frontend, item);
    await platform.heldPatch();
    expect((await platform.storedUpload(platform.uploadIds[0]!))!.offset).to.equal(5 * CHUNK_BYTES);

    await platform.restart();
    platform.releasePatches();
    expect(await frontend.next('UploadProgress', finished, UPLOAD_DEADLINE_MS)).to.deep.include({ status: 'done' });
    await expectArrivedIntact(item);
    expectEveryByteStoredOnce((await stat(item.filePath)).size);
    // After the restart the client asked the server where it stood (HEAD) before sending on.
    expect(platform.tusRequests.some((request) => request.method === 'HEAD')).to.equal(true);
  });

  it('resumes an interrupted upload after the service restarts', async () => {
    const { frontend, item } = await signedInWithVideo();
    platform.holdPatchesAfter(5);
    upload(frontend, item);
    await platform.heldPatch();
    await under.process.kill();
    platform.dropHeldPatches();
    platform.releasePatches();

    const restarted = await under.start(environment());
    await restarted.handshake();
    // The new run carries on by itself and reports to whoever is connected.
    expect(await restarted.next('UploadProgress', finished, UPLOAD_DEADLINE_MS)).to.deep.include({
      fileName: path.basename(item.filePath),
      status: 'done',
    });
    const id = platform.uploadIds[0]!;
    const state = await restarted.until('State', (next) => next.content.some((entry) => entry.uploadId === id), 10000);
    expect(state.content.find((entry) => entry.id === item.id)).to.deep.include({ uploadUrl: `${platform.origin}/watch/${id}` });
    await expectArrivedIntact(item);
    expectEveryByteStoredOnce((await stat(item.filePath)).size);
    expect(JSON.parse(await readFile(path.join(under.data.path, 'uploads', 'pending.json'), 'utf8'))).to.deep.equal([]);
  });

  it('shows an upload under way to a frontend that connects meanwhile', async () => {
    const { frontend, item } = await signedInWithVideo();
    platform.holdPatchesAfter(3);
    upload(frontend, item);
    await platform.heldPatch();
    const last = frontend.all('UploadProgress').at(-1)!;
    expect(last).to.deep.include({ status: 'uploading' });
    const reconnected = await ProtocolClient.connect(under.process.url);
    await reconnected.handshake();
    expect(await reconnected.next('UploadProgress')).to.deep.equal(last);
    platform.releasePatches();
    expect(await reconnected.next('UploadProgress', finished, UPLOAD_DEADLINE_MS)).to.deep.include({ status: 'done' });
    await reconnected.close();
  });

  it('cancels: the upload stops, the server is told and deletes what it had', async () => {
    const { frontend, item } = await signedInWithVideo();
    platform.holdPatchesAfter(3);
    upload(frontend, item);
    await platform.heldPatch();
    const id = platform.uploadIds[0]!;
    const fileName = path.basename(item.filePath);
    upload(frontend, item);
    expect(await frontend.next('CommandRejected', (rejection) => rejection.method === 'UploadContent')).to.deep.include({
      code: 'NotAllowed',
    });

    frontend.send('CancelUpload', { fileName });
    expect(await frontend.next('UploadProgress', finished, 20000)).to.deep.equal({
      fileName,
      title: 'Clutch round',
      progress: -1,
      status: 'error',
      message: 'Upload cancelled',
    });
    expect(platform.tusRequests.filter((request) => request.method === 'DELETE')).to.deep.equal([
      { method: 'DELETE', uploadId: id, status: 204 },
    ]);
    expect(await platform.storedUpload(id)).to.equal(undefined);
    expect(existsSync(path.join(platform.store.path, id))).to.equal(false);
    expect(frontend.all('ShowModal')).to.deep.equal([]);

    frontend.send('CancelUpload', { fileName });
    expect(await frontend.next('CommandRejected', (rejection) => rejection.method === 'CancelUpload')).to.deep.include({
      code: 'NotFound',
    });
  });

  it('renews the token when the platform refuses it mid-upload, and carries on', async () => {
    const { frontend, item } = await signedInWithVideo();
    platform.holdPatchesAfter(3);
    upload(frontend, item);
    await platform.heldPatch();
    platform.revokeAccessTokens();
    platform.releasePatches();

    expect(await frontend.next('UploadProgress', finished, UPLOAD_DEADLINE_MS)).to.deep.include({ status: 'done' });
    expect(platform.unauthorized).to.be.greaterThan(0);
    expect(platform.renewals).to.deep.equal([{ grantType: 'refresh_token', clientId: 'keyframe-desktop', granted: true }]);
    await expectArrivedIntact(item);
    expectEveryByteStoredOnce((await stat(item.filePath)).size);
  });

  /** Uploads to `uploadUrl`, which cannot be reached: said within 10 s while it retries; then cancelled. */
  const expectUnreachableSaidThenCancel = async (uploadUrl: string, cause: string, anotherAttempt: boolean) => {
    const { frontend, item } = await signedInWithVideo({ KEYFRAME_UPLOAD_URL: uploadUrl });
    const fileName = path.basename(item.filePath);
    const began = Date.now();
    upload(frontend, item);
    const said = await frontend.next('UploadProgress', (progress) => progress.message?.startsWith("Can't reach") === true, 10000);
    expect(Date.now() - began).to.be.below(10000);
    const host = new URL(uploadUrl).host;
    expect(said).to.deep.include({ fileName, progress: 0, status: 'uploading' });
    expect(said.message).to.match(new RegExp(`^Can't reach ${host.replaceAll('.', '\\.')} \\(${cause}\\): retrying (now|in \\d+ s)$`));
    // Retries go on: the next failed attempt is said too (a refused connection fails at once, 1 s after the first).
    if (anotherAttempt) {
      const again = await frontend.next('UploadProgress', (progress) => progress.message?.startsWith("Can't reach") === true, 5000);
      expect(again).to.deep.include({ status: 'uploading' });
    }
    frontend.send('CancelUpload', { fileName });
    expect(await frontend.next('UploadProgress', finished, 5000)).to.deep.include({ status: 'error', message: 'Upload cancelled' });
    expect(frontend.all('ShowModal')).to.deep.equal([]);
  };

  it('says within 10 s that a closed port cannot be reached, goes on retrying, and cancels', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    await expectUnreachableSaidThenCancel(`http://127.0.0.1:${port}/files/`, 'connection refused', true);
  });

  // Waits out the 10 s bound itself; the closed port above shows the same message fast. `npm run test:long` runs it.
  (longTestsSelected() ? it : it.skip)(
    'says within 10 s that a host which accepts and never answers cannot be reached (long)',
    async () => {
      const held = new Set<net.Socket>();
      const blackHole = net.createServer((socket) => held.add(socket.on('close', () => held.delete(socket))));
      await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = blackHole.address() as AddressInfo;
        await expectUnreachableSaidThenCancel(`http://127.0.0.1:${port}/files/`, 'no answer in \\d+ s', false);
      } finally {
        for (const socket of held) socket.destroy();
        await new Promise((resolve) => blackHole.close(resolve));
      }
    },
  );

  it('uploads only library files, and only when signed in', async () => {
    const { frontend, item } = await signedInWithVideo();
    const outside = path.join(under.data.path, 'elsewhere.mp4');
    const stray = path.join(under.content.path, 'not in the library.mp4');
    await writeFile(outside, 'not a library file');
    await writeFile(stray, 'not a library file either');
    const refusal = async (FilePath: string) => {
      frontend.send('UploadContent', { FilePath, Title: 'x' });
      return frontend.next('CommandRejected', (rejection) => rejection.method === 'UploadContent');
    };
    expect(await refusal(outside)).to.deep.include({ code: 'NotAllowed' });
    expect(await refusal(path.join(under.content.path, '..', path.basename(under.data.path), 'elsewhere.mp4'))).to.deep.include({
      code: 'NotAllowed',
    });
    expect(await refusal(stray)).to.deep.include({ code: 'NotFound' });
    frontend.send('Logout');
    expect(await refusal(item.filePath)).to.deep.include({ code: 'NotAllowed' });
    expect(platform.tusRequests).to.deep.equal([]);
    expect(frontend.all('UploadProgress')).to.deep.equal([]);
  });
});

function order(status: UploadProgress['status']): number {
  return ['uploading', 'processing', 'done', 'error'].indexOf(status);
}
