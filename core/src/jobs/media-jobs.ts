// The media work running in the service (jobs, and the artwork made after a clip is listed), so that
// stopping the service ends it in order: every ffmpeg stopped, every job left to remove its own
// temporary output, nothing cut off half-way through a rename.
import { injectable } from 'tsyringe';
import { FfmpegProcess, type FfmpegProcessOptions } from '../media/ffmpeg-process.js';

@injectable()
export class MediaJobs {
  private readonly work = new Set<Promise<unknown>>();
  private readonly processes = new Set<FfmpegProcess>();
  private stopping = false;

  /** Starts ffmpeg for a job; stopping the service cancels it (its outputs removed), which fails the job. */
  ffmpeg(options: FfmpegProcessOptions): FfmpegProcess {
    if (this.stopping) throw new Error('The service is stopping: no new media work starts.');
    const process = FfmpegProcess.start(options);
    this.processes.add(process);
    void process.exited.then(() => this.processes.delete(process));
    return process;
  }

  /** Keeps `work` until it settles: stopping the service waits for it. */
  track<T>(work: Promise<T>): Promise<T> {
    this.work.add(work);
    const forget = () => this.work.delete(work);
    work.then(forget, forget);
    return work;
  }

  /** Resolves once all work tracked so far has settled (tests and benchmarks wait for the artwork of a clip). */
  async idle(): Promise<void> {
    while (this.work.size > 0) await Promise.allSettled([...this.work]);
  }

  /** Cancels every running ffmpeg and waits for the work to finish its clean-up. */
  async shutdown(): Promise<void> {
    this.stopping = true;
    await Promise.all([...this.processes].map((process) => process.cancel()));
    await Promise.allSettled([...this.work]);
  }
}
