// Import and compression with the real service: ImportFile with FilePaths copies an external video
// into Full Sessions, then CompressVideo makes a smaller, playable copy of it beside the original.
import 'reflect-metadata';
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { ffmpegPath, ffprobePath } from '../kit/processes.js';
import { serviceUnderTest } from '../kit/service-under-test.js';

const run = (tool: string, args: string[]) =>
  new Promise<string>((resolve, reject) => {
    execFile(tool, args, { maxBuffer: 8 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(stderr || error.message)) : resolve(stdout),
    );
  });

/** 4 s of 640x360 at a high bitrate, two named audio tracks. */
async function highBitrateVideo(target: string): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  await run(ffmpegPath(), [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=640x360:rate=30:duration=4',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=48000:duration=4',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=660:sample_rate=48000:duration=4',
    '-map',
    '0:v',
    '-map',
    '1:a',
    '-map',
    '2:a',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-qp',
    '6',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-metadata:s:a:0',
    'title=Full Mix',
    '-metadata:s:a:0',
    'handler_name=Full Mix',
    '-metadata:s:a:1',
    'title=Voice',
    '-metadata:s:a:1',
    'handler_name=Voice',
    '-y',
    target,
  ]);
}

interface Probed {
  format: { duration: string };
  streams: { codec_type: string; tags?: { title?: string; handler_name?: string } }[];
}
const probe = async (file: string) =>
  JSON.parse(await run(ffprobePath(), ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file])) as Probed;

describe('import and compression', function () {
  this.timeout(120000);
  const under = serviceUnderTest();

  it('imports a file with FilePaths, then compresses it into a smaller playable copy', async () => {
    const frontend = await under.start();
    await frontend.handshake();
    frontend.send('UpdateSettings', { contentFolder: under.content.path });
    await frontend.until('Settings', (settings) => path.resolve(settings.contentFolder) === path.resolve(under.content.path), 10000);

    const source = path.join(under.data.path, 'downloads', 'my match.mp4');
    await highBitrateVideo(source);
    const original = await readFile(source);

    frontend.send('ImportFile', { sectionId: 'sessions', FilePaths: [source] });
    const finished = await frontend.next(
      'ImportProgress',
      (progress) => progress.fileName === 'Finished' || progress.fileName === 'Failed',
      30000,
    );
    expect(finished).to.deep.include({
      status: 'done',
      progress: 100,
      totalFiles: 1,
      currentFileIndex: 0,
      message: 'Completed: 1 successful, 0 failed',
    });
    const state = await frontend.until('State', (next) => next.content.some((item) => item.isImported), 10000);
    const imported = state.content.find((item) => item.isImported)!;
    expect(imported).to.deep.include({
      type: 'Session',
      fileName: 'my match',
      game: 'Imported',
      compressed: false,
      audioTrackNames: ['Full Mix', 'Voice'],
    });
    expect((await readFile(source)).equals(original)).to.equal(true);
    expect((await readFile(imported.filePath)).equals(original)).to.equal(true);

    frontend.send('CompressVideo', { FilePath: imported.filePath });
    const done = await frontend.next('CompressionProgress', (progress) => progress.status !== 'compressing', 90000);
    expect(done).to.deep.include({ filePath: imported.filePath, progress: 100, status: 'done' });
    const after = await frontend.until('State', (next) => next.content.some((item) => item.compressed), 10000);
    const compressed = after.content.find((item) => item.compressed)!;
    expect(compressed).to.deep.include({
      type: 'Session',
      fileName: 'my match_compressed',
      isImported: true,
      audioTrackNames: ['Full Mix', 'Voice'],
    });
    expect((await stat(compressed.filePath)).size).to.be.lessThan(original.length);

    const [before, result] = await Promise.all([probe(imported.filePath), probe(compressed.filePath)]);
    expect(Number(result.format.duration)).to.be.closeTo(Number(before.format.duration), 0.1);
    expect(
      result.streams.filter((stream) => stream.codec_type === 'audio').map((stream) => stream.tags?.title ?? stream.tags?.handler_name),
    ).to.deep.equal(['Full Mix', 'Voice']);

    frontend.send('CompressVideo', { FilePath: path.join(under.content.path, '..', 'elsewhere.mp4') });
    expect(await frontend.next('CommandRejected', (rejection) => rejection.method === 'CompressVideo')).to.deep.include({
      code: 'NotAllowed',
    });
    expect(frontend.schemaViolations).to.deep.equal([]);
  });
});
