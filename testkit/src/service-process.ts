// Runs the real service as a child process (`keyframe --data-dir … --port 0`), the way a user does.
import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const CORE = path.dirname(require.resolve('@keyframe/core/package.json'));

/**
 * The `keyframe` command of core's package.json: the service's bundle (scripts/bundle-service.mjs). After a
 * `tsc -b` alone, the bundle is older than core's last compile and may hold older code: then tsc's entry,
 * the same service loading more slowly.
 */
function serviceEntry(): string {
  const { bin } = require('@keyframe/core/package.json') as { bin: Record<string, string> };
  const bundle = path.join(CORE, bin.keyframe!);
  const bundledAt = statSync(bundle, { throwIfNoEntry: false })?.mtimeMs;
  const compiledAt = statSync(path.join(CORE, 'tsconfig.tsbuildinfo'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  return bundledAt !== undefined && bundledAt >= compiledAt ? bundle : path.join(CORE, 'dist', 'main.js');
}

export interface ServiceProcessOptions {
  dataFolder: string;
  /** Extra environment variables, e.g. `KEYFRAME_ALLOWED_ORIGINS`. */
  env?: NodeJS.ProcessEnv;
  port?: number;
  /** `off` disables the legacy listener; default: a free port. */
  legacyPort?: number | 'off';
  startTimeoutMs?: number;
  /**
   * The user's home folder as the service sees it; default: `home` inside the data folder, so the
   * default content folder (`~/Videos/Keyframe`) of every test service is its own.
   */
  homeFolder?: string;
  /**
   * Only games whose executable lies in this folder are detected (`KEYFRAME_GAME_PROCESS_ROOT`);
   * default: the data folder. A test service never sees stand-in games of other suites or of the machine.
   */
  gameProcessRoot?: string;
  /** The service's entry module; default: the one of this repository's core (another install layout, for instance). */
  main?: string;
  /**
   * When `start` resolves: `loaded` (default) once everything has started (`Press Ctrl+C` is printed), `listening`
   * as soon as the service prints its address and answers, while integrations and the capture engine may still load.
   */
  until?: 'loaded' | 'listening';
}

export class ServiceProcess {
  private output = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  private constructor(
    readonly child: ChildProcess,
    readonly url: string,
    readonly legacyUrl: string | undefined,
    initialOutput: string,
  ) {
    this.output = initialOutput;
    child.stdout?.on('data', (chunk: Buffer) => {
      this.output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.output += chunk.toString();
    });
    this.exited = new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
      else child.once('exit', (code, signal) => resolve({ code, signal }));
    });
  }

  static async start(options: ServiceProcessOptions): Promise<ServiceProcess> {
    const legacy = options.legacyPort ?? 0;
    const home = options.homeFolder ?? path.join(options.dataFolder, 'home');
    const isolatedHome = { HOME: home, USERPROFILE: home, XDG_CONFIG_HOME: undefined, APPDATA: undefined };
    const gameProcessRoot = options.gameProcessRoot ?? options.dataFolder;
    const child = spawn(
      process.execPath,
      [
        options.main ?? serviceEntry(),
        '--data-dir',
        options.dataFolder,
        '--port',
        String(options.port ?? 0),
        '--legacy-port',
        String(legacy),
      ],
      {
        env: { ...process.env, ...isolatedHome, KEYFRAME_GAME_PROCESS_ROOT: gameProcessRoot, ...options.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );

    let output = '';
    const started = await new Promise<{ url: string; legacyUrl?: string }>((resolve, reject) => {
      const timer = setTimeout(() => {
        // Not left running behind the failed test, holding ports and the machine.
        child.kill('SIGKILL');
        reject(new Error(`service did not start within ${options.startTimeoutMs ?? 15000} ms:\n${output}`));
      }, options.startTimeoutMs ?? 15000);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const url = /UI:\s+(http:\/\/\S+)/.exec(output)?.[1];
        if (url && (options.until === 'listening' || output.includes('Press Ctrl+C'))) {
          clearTimeout(timer);
          child.stdout?.off('data', onData);
          resolve({ url, legacyUrl: /Legacy:\s+(ws:\/\/\S+)/.exec(output)?.[1] });
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`service exited with ${code} before it was ready:\n${output}`));
      });
    });
    return new ServiceProcess(child, started.url, started.legacyUrl, output);
  }

  /** Everything the process printed so far. */
  get printed(): string {
    return this.output;
  }

  get isRunning(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Graceful stop (SIGTERM), then the exit status. */
  async stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.isRunning) this.child.kill('SIGTERM');
    return this.exited;
  }

  /** An abrupt end (SIGKILL), as in a crash or a power cut. */
  async kill(): Promise<void> {
    if (this.isRunning) this.child.kill('SIGKILL');
    await this.exited;
  }
}
