import 'reflect-metadata';
import { expect } from 'chai';
import { access, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startedToolbox, toolboxWithoutFfmpeg } from '../testing/fixtures.js';
import { CommandError } from '../protocol/refusal.js';
import { JobCancelled, JobRunner, risingProgress, type Job } from './job-runner.js';

const later = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

describe('JobRunner', function () {
  this.timeout(30000);
  let folder: string;
  let runner: JobRunner;

  before(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-job-runner-'));
  });
  beforeEach(async () => {
    runner = new JobRunner(await startedToolbox(folder));
  });
  afterEach(() => runner.shutdown());
  after(() => rm(folder, { recursive: true, force: true }));

  /** An ffmpeg run of a job that lasts until it is cancelled, writing `output`. */
  const endless = (job: Job, output: string) =>
    job.ffmpeg({
      args: ['-f', 'lavfi', '-re', '-i', 'testsrc=size=64x64:rate=10', '-t', '60', '-f', 'mpegts', '-y', output],
      outputs: [output],
      failure: (exit) => exit.errorText,
    });

  it('gives each job its own id and the tools, and refuses a second job of the same kind and key', async () => {
    const first = runner.start({ kind: 'highlight', operation: 'Making the highlight', key: 'a' }, async (job) => job.tools.ffmpeg.path);
    const second = runner.start({ kind: 'highlight', operation: 'Making the highlight', key: 'b' }, () => later(20));
    expect(first.job.id).to.not.equal(second.job.id);
    expect(runner.find('highlight', 'b')).to.equal(second.job);
    expect(() => runner.start({ kind: 'highlight', operation: 'Making the highlight', key: 'b' }, () => later(1))).to.throw(/runs already/);
    expect(await first.done)
      .to.be.a('string')
      .and.not.equal('');
    await second.done;
    expect(runner.jobs('highlight')).to.deep.equal([]);
  });

  it('refuses without ffmpeg in the name of the operation', async () => {
    const without = new JobRunner(await toolboxWithoutFfmpeg(folder));
    expect(() => without.start({ kind: 'clip', operation: 'Making the clip' }, () => later(1))).to.throw(
      CommandError,
      /^Making the clip needs ffmpeg/,
    );
  });

  it('runs the jobs of a queue one after another in order, others at once', async () => {
    const order: string[] = [];
    const step = (name: string, ms: number) => async () => {
      order.push(`${name} start`);
      await later(ms);
      order.push(`${name} end`);
    };
    const queued = [
      runner.start({ kind: 'clip', operation: 'Making the clip', queue: 'clip' }, step('clip 1', 40)).done,
      runner.start({ kind: 'clip', operation: 'Making the clip', queue: 'clip' }, step('clip 2', 10)).done,
      runner.start({ kind: 'import', operation: 'Importing videos' }, step('import', 10)).done,
    ];
    await Promise.all(queued);
    expect(order).to.deep.equal(['clip 1 start', 'import start', 'import end', 'clip 1 end', 'clip 2 start', 'clip 2 end']);
  });

  it('cancels a job: its ffmpeg killed, its output removed, its signal aborted; a waiting job starts cancelled', async () => {
    const output = path.join(folder, 'endless.ts');
    let aborted = false;
    const running = runner.start({ kind: 'clip', operation: 'Making the clip', queue: 'clip' }, async (job) => {
      job.signal.addEventListener('abort', () => {
        aborted = true;
      });
      await endless(job, output).finished;
    });
    const waiting = runner.start({ kind: 'clip', operation: 'Making the clip', queue: 'clip' }, async (job) => job.cancelled);
    while (!(await exists(output))) await later(10);
    await runner.cancel(waiting.job);
    await runner.cancel(running.job);
    expect(await running.done.catch((error: unknown) => error)).to.be.instanceOf(JobCancelled);
    expect(aborted).to.equal(true);
    expect(await exists(output)).to.equal(false);
    expect(await waiting.done).to.equal(true);
  });

  it('shutdown cancels every job, waits for their clean-up and for tracked work, then starts nothing more', async () => {
    const output = path.join(folder, 'shutdown.ts');
    const steps: string[] = [];
    const running = runner.start({ kind: 'compression', operation: 'Compressing the video' }, async (job) => {
      job.track(later(30).then(() => steps.push('artwork')));
      try {
        await endless(job, output).finished;
      } finally {
        await later(20);
        steps.push('cleaned up');
      }
    });
    running.done.catch(() => undefined);
    while (!(await exists(output))) await later(10);
    await runner.shutdown();
    expect(steps.sort()).to.deep.equal(['artwork', 'cleaned up']);
    expect(await exists(output)).to.equal(false);
    expect(() => runner.start({ kind: 'import', operation: 'Importing videos' }, () => later(1))).to.throw(/stopping/);
  });

  it('idle waits for jobs and for work tracked while it waits', async () => {
    const settled: string[] = [];
    runner.start({ kind: 'import', operation: 'Importing videos' }, async (job) => {
      await later(20);
      job.track(later(20).then(() => settled.push('follow-up')));
      settled.push('job');
    });
    await runner.idle();
    expect(settled).to.deep.equal(['job', 'follow-up']);
  });

  it('risingProgress passes on only whole percentages above the last one, never 100 while the job runs', () => {
    const sent: number[] = [];
    const progress = risingProgress((percent) => sent.push(percent), 10);
    [5, 10, 12.7, 12, 11, 40, 0, NaN, 99, 100, 140].forEach(progress);
    expect(sent).to.deep.equal([12, 40, 99]);
  });
});
