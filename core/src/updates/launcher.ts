// The launcher of a self-updating installation: runs the service from `<root>/current`, starts it
// again when it exits to apply an update, and rolls back to the version that last ran well when
// the new one does not become ready (it exits first, or sends no ready message in time).
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import {
  INSTALL_ROOT_VARIABLE,
  InstallRoot,
  READY_MESSAGE,
  RESTART_FOR_UPDATE_EXIT_CODE,
  ROLLED_BACK_FROM_VARIABLE,
} from './install-root.js';

export interface LauncherOptions {
  root: InstallRoot;
  /** The service's entry script, relative to a version folder. */
  entry: string;
  /** Arguments for the service. */
  args: readonly string[];
  /** How long a started version has to send its ready message. */
  readyTimeoutMs: number;
  log: (message: string) => void;
  environment?: NodeJS.ProcessEnv;
  nodePath?: string;
}

interface RunOutcome {
  ready: boolean;
  code: number | null;
}

const KILL_GRACE_MS = 10_000;

export class Launcher {
  private child: ChildProcess | undefined;
  private stopping = false;

  constructor(private readonly options: LauncherOptions) {}

  /** Runs until the service exits for good; resolves to the exit code the launcher should end with. */
  async run(): Promise<number> {
    const { root, log } = this.options;
    let lastGood: string | undefined;
    let rolledBackFrom: string | undefined;
    for (;;) {
      if (this.stopping) return 0;
      const folder = await root.currentVersionFolder();
      if (!folder) throw new Error(`${root.currentLink} does not exist: the install root holds no current version.`);
      log(`starting version ${path.basename(folder)}`);
      // Only a version that replaced a good one is on trial: the first start has nothing to roll back to.
      const onTrial = lastGood !== undefined && lastGood !== folder;
      const outcome = await this.runOnce(folder, rolledBackFrom, onTrial);
      rolledBackFrom = undefined;
      if (this.stopping) return outcome.code ?? 0;
      if (outcome.ready) lastGood = folder;
      if (outcome.ready && outcome.code === RESTART_FOR_UPDATE_EXIT_CODE) continue;
      if (!outcome.ready && onTrial && lastGood) {
        log(
          `version ${path.basename(folder)} did not start (exit code ${outcome.code ?? 'none'}): rolling back to ${path.basename(lastGood)}`,
        );
        await root.switchTo(lastGood);
        rolledBackFrom = path.basename(folder);
        continue;
      }
      return outcome.code ?? 1;
    }
  }

  /** Passes a stop request (Ctrl+C, SIGTERM) on to the service; `run` then ends with its exit code. */
  stop(signal: NodeJS.Signals): void {
    this.stopping = true;
    this.child?.kill(signal);
  }

  private runOnce(folder: string, rolledBackFrom: string | undefined, onTrial: boolean): Promise<RunOutcome> {
    const { root, entry, args, readyTimeoutMs, log } = this.options;
    const environment: NodeJS.ProcessEnv = { ...(this.options.environment ?? process.env), [INSTALL_ROOT_VARIABLE]: root.folder };
    if (rolledBackFrom) environment[ROLLED_BACK_FROM_VARIABLE] = rolledBackFrom;
    else delete environment[ROLLED_BACK_FROM_VARIABLE];
    const child = spawn(this.options.nodePath ?? process.execPath, [path.join(folder, entry), ...args], {
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
      env: environment,
      cwd: folder,
    });
    this.child = child;
    return new Promise((resolve) => {
      let ready = false;
      let killTimer: NodeJS.Timeout | undefined;
      const readyTimer = !onTrial
        ? undefined
        : setTimeout(() => {
            log(`version ${path.basename(folder)} sent no ready message within ${readyTimeoutMs} ms: stopping it`);
            child.kill('SIGTERM');
            killTimer = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
          }, readyTimeoutMs);
      child.on('message', (message: unknown) => {
        if (ready || !isReadyMessage(message)) return;
        ready = true;
        clearTimeout(readyTimer);
        log(`version ${path.basename(folder)} is ready`);
      });
      child.once('error', (error) => log(`version ${path.basename(folder)} could not be started: ${error.message}`));
      child.once('close', (code) => {
        clearTimeout(readyTimer);
        clearTimeout(killTimer);
        this.child = undefined;
        resolve({ ready, code });
      });
    });
  }
}

function isReadyMessage(message: unknown): boolean {
  return typeof message === 'object' && message !== null && (message as { keyframe?: unknown }).keyframe === READY_MESSAGE.keyframe;
}
