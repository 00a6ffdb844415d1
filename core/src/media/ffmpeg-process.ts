// The one way Keyframe runs ffmpeg: spawn, `-progress` parsing, graceful stop (`q`), kill or
// cancel (partial output removed), and the error text of a failed run.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import type { Readable } from 'node:stream';
import { currentEnvironment } from '../platform/data-folders.js';
import type { Logger } from '../support/logger.js';
import { findOnPath } from './ffmpeg-toolbox.js';

export interface FfmpegProgress {
  /** Frames that went into the encoder so far. */
  frame: number;
  /** Position of the output, in seconds; behind `frame` by the encoder's look-ahead. */
  outTimeSeconds: number | undefined;
  fps: number | undefined;
  speed: number | undefined;
  totalSizeBytes: number | undefined;
  /** Frames the output's frame-rate conversion dropped (`drop_frames`), and duplicated (`dup_frames`), so far. */
  droppedFrames: number;
  duplicatedFrames: number;
  /** `progress=end`: the last report of the run. */
  done: boolean;
}

export interface FfmpegExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Exit code 0, or a requested stop that ended the run. */
  succeeded: boolean;
  /** `stop()`, `kill()` or `cancel()` was called before it ended. */
  stopRequested: boolean;
  /** The last lines ffmpeg wrote to stderr (errors only), or what went wrong starting it. */
  errorText: string;
}

export interface FfmpegProcessOptions {
  ffmpegPath: string;
  /** Inputs, filters and outputs; the runner adds the global options in front. */
  args: readonly string[];
  /** Keeps stdin open so that `stop()` can send `q` (recordings); otherwise ffmpeg runs with `-nostdin`. */
  interactive?: boolean;
  /** Files `cancel()` removes. */
  outputs?: readonly string[];
  /**
   * Opens file descriptor 3 as a pipe that ffmpeg can write an output to (`pipe:3`): stdout
   * carries `-progress`. Whoever asks for it must read it to the end, or ffmpeg blocks.
   */
  outputPipe?: boolean;
  /** More pipes after `pipe:3` (`pipe:4`, …), for more outputs; read each to the end, as `outputPipe`. */
  extraOutputPipes?: number;
  /** Runs below normal scheduling priority (nice 10; Windows' below-normal class): a recording leaves the CPU to the game. */
  belowNormalPriority?: boolean;
  logger?: Logger;
}

const STDERR_TAIL_LINES = 20;
const STDERR_TAIL_CHARS = 4000;
export const DEFAULT_STOP_TIMEOUT_MS = 10_000;
const TRAILER_FAILED = /Error writing trailer/;
const TERMINATE_GRACE_MS = 2_000;

export class FfmpegProcess {
  readonly exited: Promise<FfmpegExit>;
  private readonly child: ChildProcess;
  private readonly progressListeners = new Set<(progress: FfmpegProgress) => void>();
  private stderrLines: string[] = [];
  private stdoutRest = '';
  private stderrRest = '';
  private block: Record<string, string> = {};
  private stopRequested = false;
  private running = true;
  private lastReport: FfmpegProgress | undefined;

  private constructor(private readonly options: FfmpegProcessOptions) {
    const args = [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostats',
      '-progress',
      'pipe:1',
      ...(options.interactive ? [] : ['-nostdin']),
      ...options.args,
    ];
    const niced = options.belowNormalPriority ? underNice(options.ffmpegPath, args) : undefined;
    const [command, commandArgs] = withParentDeathSignal(...(niced ?? [options.ffmpegPath, args]));
    options.logger?.debug('ffmpeg', { command, args: commandArgs });
    this.child = spawn(command, commandArgs, {
      stdio: [
        options.interactive ? 'pipe' : 'ignore',
        'pipe',
        'pipe',
        ...Array.from(
          { length: (options.outputPipe || options.extraOutputPipes ? 1 : 0) + (options.extraOutputPipes ?? 0) },
          () => 'pipe' as const,
        ),
      ],
      windowsHide: true,
    });
    if (options.belowNormalPriority && !niced) lowerPriority(this.child.pid, options.logger);
    // ffmpeg may be gone when `q` is written; that is an ordinary end, not an error.
    this.child.stdin?.on('error', () => undefined);
    this.child.stdout?.setEncoding('utf8').on('data', (chunk: string) => this.readProgress(chunk));
    this.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => this.readErrors(chunk));
    this.exited = new Promise((resolve) => {
      let spawnError: Error | undefined;
      this.child.once('error', (error) => {
        spawnError = error;
        // 'close' does not follow when the process could not be started at all.
        if (this.child.pid === undefined) resolve(this.finish(null, null, spawnError));
      });
      this.child.once('close', (code, signal) => resolve(this.finish(code, signal, spawnError)));
    });
  }

  static start(options: FfmpegProcessOptions): FfmpegProcess {
    return new FfmpegProcess(options);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** What ffmpeg writes to `pipe:3`; present when started with `outputPipe`. */
  get outputPipe(): Readable | undefined {
    return (this.child.stdio[3] ?? undefined) as Readable | undefined;
  }

  /** What ffmpeg writes to `pipe:<fd>` (3 and up), when that pipe was opened. */
  pipe(fd: number): Readable | undefined {
    return (this.child.stdio[fd] ?? undefined) as Readable | undefined;
  }

  /** The newest progress report. */
  get progress(): FfmpegProgress | undefined {
    return this.lastReport;
  }

  onProgress(listener: (progress: FfmpegProgress) => void): () => void {
    this.progressListeners.add(listener);
    return () => this.progressListeners.delete(listener);
  }

  /**
   * Ends the run so that the output is finalised: `q` on stdin (interactive runs) or SIGINT,
   * then SIGTERM and SIGKILL if ffmpeg has not exited after `timeoutMs`.
   */
  stop(timeoutMs = DEFAULT_STOP_TIMEOUT_MS): Promise<FfmpegExit> {
    if (!this.running) return this.exited;
    this.stopRequested = true;
    if (this.child.stdin?.writable) {
      this.child.stdin.end('q');
    } else if (process.platform !== 'win32') {
      this.child.kill('SIGINT');
    }
    let kill: NodeJS.Timeout | undefined;
    const terminate = setTimeout(() => {
      this.options.logger?.warn('ffmpeg did not stop in time: terminating it', { pid: this.pid, timeoutMs });
      if (process.platform === 'win32') {
        this.child.kill('SIGKILL');
      } else {
        this.child.kill('SIGTERM');
        kill = setTimeout(() => this.child.kill('SIGKILL'), TERMINATE_GRACE_MS);
      }
    }, timeoutMs);
    return this.exited.finally(() => {
      clearTimeout(terminate);
      clearTimeout(kill);
    });
  }

  /** Ends the run at once; the output is left as it is (a fragmented MP4 stays playable). */
  kill(): Promise<FfmpegExit> {
    if (this.running) {
      this.stopRequested = true;
      this.child.kill('SIGKILL');
    }
    return this.exited;
  }

  /** Kills the run and removes its partial outputs. */
  async cancel(): Promise<FfmpegExit> {
    const exit = await this.kill();
    await Promise.all((this.options.outputs ?? []).map((file) => rm(file, { force: true })));
    return exit;
  }

  private finish(code: number | null, signal: NodeJS.Signals | null, spawnError: Error | undefined): FfmpegExit {
    this.running = false;
    this.readErrors('\n');
    let errorText = this.stderrLines.join('\n').trim();
    // Older builds exit 0 when the file's trailer (its index) could not be written: the output is unplayable.
    const trailerFailed = TRAILER_FAILED.test(errorText);
    const succeeded = spawnError === undefined && !trailerFailed && (code === 0 || (this.stopRequested && code !== null));
    if (spawnError) errorText = `ffmpeg could not be started (${this.options.ffmpegPath}): ${spawnError.message}`;
    else if (!errorText && !succeeded) errorText = signal ? `ffmpeg was ended by ${signal}` : `ffmpeg exited with code ${code}`;
    const exit: FfmpegExit = { code, signal, succeeded, stopRequested: this.stopRequested, errorText };
    this.options.logger?.debug('ffmpeg exited', { pid: this.pid, code, signal, stopRequested: this.stopRequested });
    return exit;
  }

  private readProgress(chunk: string): void {
    const lines = (this.stdoutRest + chunk).split('\n');
    this.stdoutRest = lines.pop() ?? '';
    for (const line of lines) {
      const separator = line.indexOf('=');
      if (separator <= 0) continue;
      const key = line.slice(0, separator).trim();
      const value = line.slice(separator + 1).trim();
      this.block[key] = value;
      if (key === 'progress') {
        const report = parseProgressBlock(this.block);
        this.block = {};
        this.lastReport = report;
        for (const listener of this.progressListeners) {
          try {
            listener(report);
          } catch (error) {
            this.options.logger?.error('ffmpeg progress listener failed', { error });
          }
        }
      }
    }
  }

  private readErrors(chunk: string): void {
    const lines = (this.stderrRest + chunk).split(/\r?\n/);
    this.stderrRest = lines.pop() ?? '';
    for (const line of lines) {
      if (line.trim()) this.stderrLines.push(line.trimEnd());
    }
    if (this.stderrLines.length > STDERR_TAIL_LINES) this.stderrLines = this.stderrLines.slice(-STDERR_TAIL_LINES);
    while (this.stderrLines.join('\n').length > STDERR_TAIL_CHARS && this.stderrLines.length > 1) this.stderrLines.shift();
  }
}

/** One `-progress` block (`key=value` lines up to `progress=continue|end`) as numbers. */
export function parseProgressBlock(block: Readonly<Record<string, string>>): FfmpegProgress {
  const number = (text: string | undefined) => {
    if (text === undefined) return undefined;
    const value = Number.parseFloat(text);
    return Number.isFinite(value) ? value : undefined;
  };
  // `out_time_ms` is microseconds too (an old ffmpeg naming bug); `out_time_us` is newer.
  const microseconds = number(block.out_time_us) ?? number(block.out_time_ms);
  return {
    frame: number(block.frame) ?? 0,
    outTimeSeconds: microseconds === undefined ? undefined : Math.max(0, microseconds) / 1e6,
    fps: number(block.fps),
    speed: number(block.speed?.replace(/x$/, '')),
    totalSizeBytes: number(block.total_size),
    droppedFrames: number(block.drop_frames) ?? 0,
    duplicatedFrames: number(block.dup_frames) ?? 0,
    done: block.progress === 'end',
  };
}

let priorityFailureLogged = false;

/**
 * On Linux each thread has its own nice value and new ones take their creator's: lowered after the
 * spawn, threads ffmpeg started first would keep the old one. `nice` execs ffmpeg at 10 instead
 * (the pid stays ffmpeg's). Undefined on Windows or without `nice`.
 */
function underNice(command: string, args: string[]): [string, string[]] | undefined {
  if (process.platform === 'win32') return undefined;
  niceCommand ??= findOnPath('nice', currentEnvironment()) ?? null;
  return niceCommand ? [niceCommand, ['-n', '10', command, ...args]] : undefined;
}

let niceCommand: string | null | undefined;

/** After the spawn (Windows: the priority class, which all threads follow). Not being allowed is logged once and otherwise ignored. */
function lowerPriority(pid: number | undefined, logger: Logger | undefined): void {
  if (pid === undefined) return;
  try {
    os.setPriority(pid, os.constants.priority.PRIORITY_BELOW_NORMAL);
  } catch (error) {
    if (priorityFailureLogged) return;
    priorityFailureLogged = true;
    logger?.warn('ffmpeg runs at normal priority: lowering it failed', { pid, error: (error as Error).message });
  }
}

let parentDeathWrapper: string | null | undefined;

/**
 * On Linux, ffmpeg outlives a killed parent and would record forever; `setpriv --pdeathsig KILL`
 * (util-linux) makes the kernel end it with the service. It execs ffmpeg, so the pid stays
 * ffmpeg's. The signal fires when the spawning *thread* ends: spawn from the main thread only.
 * Windows needs nothing (libuv puts children in a kill-on-close job); macOS has no equivalent.
 */
function withParentDeathSignal(command: string, args: string[]): [string, string[]] {
  if (process.platform !== 'linux') return [command, args];
  if (parentDeathWrapper === undefined) {
    const setpriv = findOnPath('setpriv', currentEnvironment());
    const help = setpriv ? spawnSync(setpriv, ['--help'], { encoding: 'utf8', timeout: 2000 }) : undefined;
    parentDeathWrapper = setpriv && help?.stdout?.includes('--pdeathsig') ? setpriv : null;
  }
  return parentDeathWrapper ? [parentDeathWrapper, ['--pdeathsig', 'KILL', command, ...args]] : [command, args];
}
