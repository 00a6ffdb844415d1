import 'reflect-metadata';
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SyntheticCaptureSource } from './capture-source.js';
import { locateFfmpegTools } from './ffmpeg-toolbox.js';
import { FfmpegProcess, parseProgressBlock, type FfmpegProgress } from './ffmpeg-process.js';
import { probeMedia } from './probe.js';
import { recordingEncodingArgs } from './session-encoding.js';
import { crfVideo } from '../testing/fixtures.js';

describe('FfmpegProcess', function () {
  this.timeout(20000);
  const tools = locateFfmpegTools();
  let folder: string;

  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-ffmpeg-'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  it('parses a -progress block, old and new spellings of the output time', () => {
    expect(
      parseProgressBlock({
        frame: '31',
        fps: '30.87',
        out_time_us: '384000',
        total_size: '1229',
        dup_frames: '2',
        drop_frames: '5',
        speed: '0.382x',
        progress: 'continue',
      }),
    ).to.deep.equal({
      frame: 31,
      outTimeSeconds: 0.384,
      fps: 30.87,
      speed: 0.382,
      totalSizeBytes: 1229,
      droppedFrames: 5,
      duplicatedFrames: 2,
      done: false,
    });
    expect(parseProgressBlock({ frame: '90', out_time_ms: '3000000', total_size: 'N/A', speed: 'N/A', progress: 'end' })).to.deep.include({
      frame: 90,
      outTimeSeconds: 3,
      totalSizeBytes: undefined,
      speed: undefined,
      done: true,
    });
  });

  it('counts a run whose file index could not be written as failed, whatever the exit code', async () => {
    const run = FfmpegProcess.start({
      ffmpegPath: tools.ffmpeg.path,
      // 100 bytes cannot hold the index of a second of video: the trailer fails (old builds still exit 0).
      args: [
        '-v',
        'error',
        '-f',
        'lavfi',
        '-i',
        'testsrc2=s=160x90:r=30',
        '-t',
        '1',
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-moov_size',
        '100',
        '-f',
        'mp4',
        '-y',
        path.join(folder, 'out.mp4'),
      ],
    });
    const exit = await run.exited;
    expect(exit.succeeded).to.equal(false);
    expect(exit.errorText).to.match(/trailer/);
  });

  it('reports progress, stops gracefully with q and leaves a complete file', async () => {
    const output = path.join(folder, 'out.mp4');
    const format = { width: 320, height: 180, frameRate: 30 };
    const run = FfmpegProcess.start({
      ffmpegPath: tools.ffmpeg.path,
      args: recordingEncodingArgs({
        inputs: new SyntheticCaptureSource().inputs(format),
        video: crfVideo(format, 30),
        outputs: { sessionPath: output },
      }),
      interactive: true,
    });
    const reports: FfmpegProgress[] = [];
    run.onProgress((progress) => reports.push(progress));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const exit = await run.stop();
    expect(exit).to.deep.include({ code: 0, succeeded: true, stopRequested: true });
    expect(reports.length).to.be.at.least(2);
    expect(reports.at(-1)!.done).to.equal(true);
    expect(reports.at(-1)!.frame).to.be.greaterThan(20);
    const probed = await probeMedia(tools.ffprobe.path, output);
    expect(probed.durationSeconds).to.be.within(1, 2.5);
    expect(probed.streams.map((stream) => `${stream.type}:${stream.codec}`)).to.deep.equal(['video:h264', 'audio:aac']);
  });

  it('runs below normal priority when asked: on Linux every ffmpeg thread has nice 10 or more, the others keep ours', async function () {
    if (process.platform !== 'linux') this.skip();
    const encode = ['-re', '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=30', '-c:v', 'libx264', '-threads', '4', '-f', 'null', '-'];
    const lowered = FfmpegProcess.start({ ffmpegPath: tools.ffmpeg.path, args: encode, belowNormalPriority: true });
    const plain = FfmpegProcess.start({ ffmpegPath: tools.ffmpeg.path, args: encode });
    try {
      await Promise.all([lowered, plain].map((run) => new Promise<void>((resolve) => run.onProgress(() => resolve()))));
      // Some x264 builds lower their own helper threads by 10 more: from 10 that is 19.
      const loweredNice = await threadNiceValues(lowered.pid!);
      expect(loweredNice.length, 'threads of the encode').to.be.above(1);
      expect(Math.min(...loweredNice), `nice of each thread: ${loweredNice.join(' ')}`).to.equal(
        os.constants.priority.PRIORITY_BELOW_NORMAL,
      );
      expect(Math.min(...(await threadNiceValues(plain.pid!)))).to.equal(os.getPriority());
    } finally {
      await Promise.all([lowered.kill(), plain.kill()]);
    }
  });

  it("keeps ffmpeg's own words when a run fails", async () => {
    const run = FfmpegProcess.start({ ffmpegPath: tools.ffmpeg.path, args: ['-i', path.join(folder, 'missing.mp4'), '-f', 'null', '-'] });
    const exit = await run.exited;
    expect(exit.succeeded).to.equal(false);
    expect(exit.code).to.not.equal(0);
    expect(exit.errorText).to.include('missing.mp4');
  });

  it('tells when ffmpeg cannot be started at all', async () => {
    const exit = await FfmpegProcess.start({ ffmpegPath: path.join(folder, 'no-ffmpeg'), args: [] }).exited;
    expect(exit.succeeded).to.equal(false);
    expect(exit.errorText).to.match(/no-ffmpeg/);
  });

  it('cancel() kills the run and removes its partial output', async () => {
    const output = path.join(folder, 'partial.mp4');
    const run = FfmpegProcess.start({
      ffmpegPath: tools.ffmpeg.path,
      args: ['-re', '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=30', '-c:v', 'libx264', '-preset', 'ultrafast', '-y', output],
      outputs: [output],
    });
    await new Promise<void>((resolve) => run.onProgress(() => resolve()));
    expect(existsSync(output)).to.equal(true);
    const exit = await run.cancel();
    expect(exit).to.deep.include({ signal: 'SIGKILL', succeeded: false, stopRequested: true });
    expect(existsSync(output)).to.equal(false);
  });
});

/** The nice value of each thread of `pid` (field 19 of /proc/<pid>/task/<tid>/stat, counted after the command's `)`). */
async function threadNiceValues(pid: number): Promise<number[]> {
  const threads = await readdir(`/proc/${pid}/task`);
  const stats = await Promise.all(threads.map((thread) => readFile(`/proc/${pid}/task/${thread}/stat`, 'utf8')));
  return stats.map((stat) => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
}
