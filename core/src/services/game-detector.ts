// Which known games are running: the process list, polled every 2 s, matched against the games
// of integration manifests and the user's `games` entries (by executable file name, or full path).
import { inject, injectable } from 'tsyringe';
import { listProcesses, executableName, type RunningProcess } from '../platform/process-list.js';
import { Logger } from '../support/logger.js';

export const DETECTION_INTERVAL_MS = 2000;

export interface KnownGame {
  name: string;
  executables: readonly string[];
}

export interface RunningGame {
  name: string;
  executablePath: string;
  pid: number;
}

export type ProcessLister = () => Promise<RunningProcess[]>;
export const PROCESS_LISTER = Symbol('ProcessLister');

type Listener = (running: readonly RunningGame[]) => void;

@injectable()
export class GameDetector {
  private running: RunningGame[] = [];
  private timer: NodeJS.Timeout | undefined;
  private sources: (() => readonly KnownGame[])[] = [];
  private readonly listeners = new Set<Listener>();
  private readonly logger: Logger;

  constructor(@inject(PROCESS_LISTER) private readonly listProcesses: ProcessLister, logger: Logger) {
    this.logger = logger.child('games');
  }

  get current(): readonly RunningGame[] {
    return this.running;
  }

  /** Adds a source of known games (read at every poll, so changes apply at once). */
  addCatalog(source: () => readonly KnownGame[]): void {
    this.sources.push(source);
  }

  onChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    if (this.timer) return;
    const poll = () => {
      void this.detect().finally(() => {
        if (this.timer) this.timer = setTimeout(poll, DETECTION_INTERVAL_MS);
      });
    };
    this.timer = setTimeout(poll, 0);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** One detection pass; public so a caller can ask for a fresh answer. */
  async detect(): Promise<readonly RunningGame[]> {
    let processes: RunningProcess[];
    try {
      processes = await this.listProcesses();
    } catch (error) {
      this.logger.warn('could not list processes', { error });
      return this.running;
    }
    const found = matchGames(processes, this.sources.flatMap((source) => source()));
    const key = (games: readonly RunningGame[]) => games.map((game) => `${game.name}\0${game.pid}`).sort().join('\n');
    if (key(found) !== key(this.running)) {
      this.running = found;
      this.logger.info('running games changed', { games: found.map((game) => game.name) });
      for (const listener of this.listeners) listener(found);
    }
    return found;
  }
}

/** Each known game once, with the first process whose executable matches one of its entries. */
export function matchGames(processes: readonly RunningProcess[], known: readonly KnownGame[]): RunningGame[] {
  const games: RunningGame[] = [];
  for (const game of known) {
    if (games.some((found) => found.name === game.name)) continue;
    const process = processes.find((candidate) => game.executables.some((entry) => matchesExecutable(candidate.executable, entry)));
    if (process) games.push({ name: game.name, executablePath: process.executable, pid: process.pid });
  }
  return games;
}

/** An entry with a folder separator must match the full path; a bare name matches the file name. */
function matchesExecutable(executable: string, entry: string): boolean {
  const normalized = (text: string) => text.replaceAll('\\', '/').toLowerCase();
  if (/[\\/]/.test(entry)) return normalized(executable) === normalized(entry);
  return executableName(executable).toLowerCase() === entry.toLowerCase();
}

export const systemProcessLister: ProcessLister = () => listProcesses();
