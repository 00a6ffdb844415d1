// The one way media work runs in the service (clips, highlights, compressions, imports, recoveries):
// each job gets an id, the ffmpeg tools it needs (or the refusal naming its operation), a place in its
// queue, its ffmpeg runs and an abort signal that `cancel` ends, and work it leaves going (a clip's
// artwork). Stopping the service cancels every job (running ffmpeg killed, partial outputs removed by the
// job itself) and waits until each has cleaned up: nothing is cut off half-way through a rename.
import { injectable } from 'tsyringe';
import { FfmpegProcess, type FfmpegExit, type FfmpegProcessOptions } from '../media/ffmpeg-process.js';
import { FfmpegToolbox, type FfmpegTools } from '../media/ffmpeg-toolbox.js';

export type JobKind = 'clip' | 'highlight' | 'compression' | 'import' | 'recovery';

export interface JobSpec {
  kind: JobKind;
  /** What it does, as a refusal names it: "Making the clip" needs ffmpeg, which… */
  operation: string;
  /** What it works on (a clip id, a file, an item): one job per key and kind at a time. */
  key?: string;
  /** Jobs of one queue run one after another, in the order they started; jobs without one run at once. */
  queue?: string;
}

/** Raised in a job that was cancelled (by `cancel` or by the service stopping). */
export class JobCancelled extends Error {
  constructor() {
    super('The job was cancelled.');
  }
}

/** An ffmpeg run of a job. */
export interface JobFfmpeg {
  process: FfmpegProcess;
  /** Resolves when it succeeded; rejects with `JobCancelled` when the job was cancelled, else with `failure(exit)`. */
  finished: Promise<void>;
}

export interface JobFfmpegOptions extends Omit<FfmpegProcessOptions, 'ffmpegPath'> {
  /** Called with the output position (seconds) as ffmpeg reports it. */
  onPosition?: (seconds: number) => void;
  /** The error a failed run rejects with. */
  failure: (exit: FfmpegExit) => string;
}

/** What a job's work sees of its job. */
export class Job {
  private readonly controller = new AbortController();
  private readonly processes = new Set<FfmpegProcess>();

  constructor(
    readonly id: number,
    readonly spec: JobSpec,
    readonly tools: FfmpegTools,
    private readonly runner: JobRunner,
  ) {}

  /** Aborted when the job is cancelled: pass it to streams and timers the job waits for. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get cancelled(): boolean {
    return this.controller.signal.aborted;
  }

  /** Throws `JobCancelled` once the job was cancelled: a job checks between its steps. */
  throwIfCancelled(): void {
    if (this.cancelled) throw new JobCancelled();
  }

  /** Starts ffmpeg as part of the job: cancelling the job kills it and removes its `outputs`. */
  ffmpeg({ onPosition, failure, ...options }: JobFfmpegOptions): JobFfmpeg {
    this.throwIfCancelled();
    const process = FfmpegProcess.start({ ...options, ffmpegPath: this.tools.ffmpeg.path });
    this.processes.add(process);
    if (onPosition) {
      process.onProgress((report) => {
        if (report.outTimeSeconds !== undefined) onPosition(report.outTimeSeconds);
      });
    }
    const finished = process.exited.then((exit) => {
      this.processes.delete(process);
      this.throwIfCancelled();
      if (!exit.succeeded) throw new Error(failure(exit));
    });
    return { process, finished };
  }

  /** Work the job leaves going after it ended (a clip's artwork): stopping the service waits for it. */
  track(work: Promise<unknown>): void {
    this.runner.track(work);
  }

  /** @internal The runner's: aborts the signal and kills the job's ffmpeg runs. */
  async abort(): Promise<void> {
    this.controller.abort(new JobCancelled());
    await Promise.all([...this.processes].map((process) => process.cancel()));
  }
}

interface Entry {
  job: Job;
  done: Promise<unknown>;
}

@injectable()
export class JobRunner {
  private nextId = 1;
  private readonly entries = new Map<number, Entry>();
  /** The last job of each queue: the next one starts when it has ended. */
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly work = new Set<Promise<unknown>>();
  private stopping = false;

  constructor(private readonly toolbox: FfmpegToolbox) {}

  /**
   * Runs `work` as a job once its queue lets it, and resolves to what it resolved to. Refuses (throws at
   * once) without ffmpeg, in the name of `spec.operation`; throws when the service is stopping or a job
   * of the same kind and key runs. A job cancelled before its turn still runs `work`, with `cancelled`
   * set: the job reports its own end.
   */
  start<T>(spec: JobSpec, work: (job: Job) => Promise<T>): { job: Job; done: Promise<T> } {
    if (this.stopping) throw new Error('The service is stopping: no new media work starts.');
    const tools = this.toolbox.requireFfmpeg(spec.operation);
    if (spec.key !== undefined && this.find(spec.kind, spec.key)) throw new Error(`A ${spec.kind} job for ${spec.key} runs already.`);
    const job = new Job(this.nextId++, spec, tools, this);
    const { queue } = spec;
    const previous = queue === undefined ? Promise.resolve() : (this.queues.get(queue) ?? Promise.resolve());
    // A job cancelled while it waits runs at once (to report its end); the next one still waits for all before it.
    const turn = Promise.race([
      previous,
      new Promise<void>((resolve) => job.signal.addEventListener('abort', () => resolve(), { once: true })),
    ]);
    const done = turn.then(() => work(job)).finally(() => this.entries.delete(job.id));
    const settled = done.then(
      () => undefined,
      () => undefined,
    );
    if (queue !== undefined) {
      const tail = Promise.all([previous, settled]);
      this.queues.set(queue, tail);
      void tail.then(() => {
        if (this.queues.get(queue) === tail) this.queues.delete(queue);
      });
    }
    this.entries.set(job.id, { job, done: settled });
    this.track(done);
    return { job, done };
  }

  /** The job of that kind and key, if one runs or waits. */
  find(kind: JobKind, key: string): Job | undefined {
    return this.jobs(kind).find((job) => job.spec.key === key);
  }

  /** The jobs of a kind that run or wait, in the order they started. */
  jobs(kind: JobKind): Job[] {
    return [...this.entries.values()].map((entry) => entry.job).filter((job) => job.spec.kind === kind);
  }

  /** Cancels the job and resolves once it has ended (its clean-up done). */
  async cancel(job: Job): Promise<void> {
    const entry = this.entries.get(job.id);
    if (!entry) return;
    await job.abort();
    await entry.done;
  }

  /** Keeps `work` until it settles: `idle` and `shutdown` wait for it. */
  track(work: Promise<unknown>): void {
    this.work.add(work);
    const forget = () => this.work.delete(work);
    work.then(forget, forget);
  }

  /** Resolves once every job and all tracked work, including what was added while waiting, has settled. */
  async idle(): Promise<void> {
    while (this.work.size > 0) await Promise.allSettled([...this.work]);
  }

  /** Starts nothing more, cancels every job (waiting ones too) and waits until all work has settled. */
  async shutdown(): Promise<void> {
    this.stopping = true;
    await Promise.all([...this.entries.values()].map(({ job }) => job.abort()));
    await this.idle();
  }
}

/**
 * The guard every job's running progress passes through: whole percents, only when they rose above the
 * last one passed on (ffmpeg reports many times a second, and a job's steps may each count from 0), and
 * never 100 or more: 100 means done and is sent once by the job's end, as -1 is by its failure.
 */
export function risingProgress(send: (percent: number) => void, last = 0): (percent: number) => void {
  return (percent) => {
    const whole = Math.min(99, Math.floor(percent));
    if (!(whole > last)) return;
    last = whole;
    send(whole);
  };
}
