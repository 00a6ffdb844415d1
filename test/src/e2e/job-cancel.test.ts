// Cancelling the long media jobs over the real WebSocket: CancelImport, CancelCompression and CancelAiClip
// each stop their job mid-way; the job's progress event ends with -1 and `cancelled`, and the content
// folder is byte for byte what it was before the job; a job that is not running is a NotFound rejection.
import 'reflect-metadata';
import { expect } from 'chai';
import path from 'node:path';
import type { ProtocolClient } from '@keyframe/integration-testkit';
import { folderChecksum, folderListing } from '../kit/folder-checksum.js';
import { rawVideo } from '../kit/raw-video.js';
import { serviceUnderTest } from '../kit/service-under-test.js';

/** How the progress event of a cancelled job ends. */
const cancelledEnd = (job: string) => ({ progress: -1, status: 'error', message: `${job} cancelled`, cancelled: true });

describe('cancelling media jobs over the protocol', function () {
  this.timeout(120_000);
  const under = serviceUnderTest();

  /** What the content folder holds, and its checksum: equal before and after a cancelled job. */
  const contentFolder = async () => ({
    listing: await folderListing(under.content.path),
    checksum: await folderChecksum(under.content.path),
  });

  const rejection = (frontend: ProtocolClient, method: string) => frontend.next('CommandRejected', (event) => event.method === method);

  it('CancelImport, CancelCompression and CancelAiClip stop their job and leave the content folder as it was', async () => {
    const { client: frontend } = await under.connect();
    frontend.send('UpdateSettings', { contentFolder: under.content.path, clipPreset: 'slower', autoGenerateHighlights: false });
    await frontend.until('Settings', (settings) => path.resolve(settings.contentFolder) === path.resolve(under.content.path), 10_000);
    const source = path.join(under.data.path, 'downloads', 'long match.mkv');
    await rawVideo(source);

    // Import: cancelled as soon as the copy is under way.
    const empty = await contentFolder();
    frontend.send('ImportFile', { sectionId: 'sessions', FilePaths: [source] });
    const copying = await frontend.next('ImportProgress', (event) => event.message === 'Copying', 30_000);
    frontend.send('CancelImport', { id: copying.id });
    const importEnd = await frontend.next('ImportProgress', (event) => event.status !== 'importing', 30_000);
    expect(importEnd).to.deep.include({ id: copying.id, ...cancelledEnd('Import') });
    expect(await contentFolder()).to.deep.equal(empty);
    expect(frontend.latest('State')!.content).to.deep.equal([]);

    // A whole import, for the compression and the highlight to work on.
    frontend.send('ImportFile', { sectionId: 'sessions', FilePaths: [source] });
    const imported = await frontend.next('ImportProgress', (event) => event.progress === 100 && event.output !== undefined, 60_000);
    const item = (await frontend.until('State', (state) => state.content.length === 1, 30_000)).content[0]!;
    expect(imported.output).to.deep.include({ filePath: item.filePath, type: 'Session' });
    frontend.send('AddBookmark', { FilePath: item.filePath, ContentType: 'Session', Type: 'Kill', Time: '00:00:05', Id: 5 });
    await frontend.until('State', (state) => state.content[0]!.bookmarks.length === 1, 10_000);
    const withItem = await contentFolder();

    // Compression: cancelled once ffmpeg reports progress.
    frontend.send('CompressVideo', { FilePath: item.filePath });
    await frontend.next('CompressionProgress', (event) => event.progress > 0, 60_000);
    frontend.send('CancelCompression', { filePath: item.filePath });
    const compressionEnd = await frontend.next('CompressionProgress', (event) => event.status !== 'compressing', 30_000);
    expect(compressionEnd).to.deep.equal({ filePath: item.filePath, ...cancelledEnd('Compression') });
    expect(await contentFolder()).to.deep.equal(withItem);

    // Highlight: cancelled while ffmpeg cuts the windows.
    frontend.send('CreateAiClip', { FileName: item.fileName });
    const extracting = await frontend.next('AiProgress', (event) => event.progress > 10, 60_000);
    frontend.send('CancelAiClip', { id: extracting.id });
    const highlightEnd = await frontend.next('AiProgress', (event) => event.status !== 'processing', 30_000);
    expect(highlightEnd).to.deep.include({ id: extracting.id, ...cancelledEnd('Highlight') });
    expect(await contentFolder()).to.deep.equal(withItem);
    expect(frontend.latest('State')!.content.map((entry) => entry.type)).to.deep.equal(['Session']);

    // Jobs that are not running: refused, naming what was asked.
    frontend.send('CancelImport', { id: copying.id });
    expect(await rejection(frontend, 'CancelImport')).to.deep.include({ code: 'NotFound' });
    frontend.send('CancelCompression', { filePath: item.filePath });
    expect(await rejection(frontend, 'CancelCompression')).to.deep.include({ code: 'NotFound' });
    frontend.send('CancelAiClip', { id: extracting.id });
    expect(await rejection(frontend, 'CancelAiClip')).to.deep.include({ code: 'NotFound' });
    expect(frontend.schemaViolations).to.deep.equal([]);
  });
});
