// Which known games are running: the current user's process list, polled every 2 s, matched against
// the game catalog (integration manifests, the bundled list, the user's `games` entries) by executable.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { inject, injectable } from 'tsyringe';
import { listProcesses, type RunningProcess } from '../platform/process-list.js';
import { Logger } from '../support/logger.js';
import { executableMatcher, GameCatalog, normalizeExecutable, type KnownGame } from './game-catalog.js';

export type { KnownGame } from './game-catalog.js';

export const DETECTION_INTERVAL_MS = 2000;

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

  /** Without a catalog (tests of other parts) the detector watches only the sources added to it. */
  constructor(
    @inject(PROCESS_LISTER) private readonly listProcesses: ProcessLister,
    logger: Logger,
    private readonly catalog?: GameCatalog,
  ) {
    this.logger = logger.child('games');
  }

  get current(): readonly RunningGame[] {
    return this.running;
  }

  /**
   * Adds a source of known games (read at every poll, so changes apply at once). With a catalog the
   * source joins it, so integration games are also in `GameList`.
   */
  addCatalog(source: () => readonly KnownGame[]): void {
    if (this.catalog) this.catalog.addSource(source);
    else this.sources.push(source);
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
    const known = this.catalog ? this.catalog.list() : this.sources.flatMap((source) => source());
    const found = matchGames(processes, known);
    const key = (games: readonly RunningGame[]) =>
      games
        .map((game) => `${game.name}\0${game.pid}`)
        .sort()
        .join('\n');
    if (key(found) !== key(this.running)) {
      this.running = found;
      this.logger.info('running games changed', { games: found.map((game) => game.name) });
      for (const listener of this.listeners) listener(found);
    }
    return found;
  }
}

/**
 * Each known game once, with the first process whose executable matches one of its entries
 * (see `executableMatch`: a bare name matches the file name, a path the end of the full path).
 */
export function matchGames(processes: readonly RunningProcess[], known: readonly KnownGame[]): RunningGame[] {
  const games: RunningGame[] = [];
  const executables = processes.map((process) => normalizeExecutable(process.executable));
  for (const game of known) {
    if (games.some((found) => found.name === game.name)) continue;
    const matchers = game.executables.map(executableMatcher);
    const index = executables.findIndex((executable) => matchers.some((matches) => matches(executable) > 0));
    const process = processes[index];
    if (process) games.push({ name: game.name, executablePath: process.executable, pid: process.pid });
  }
  return games;
}

/**
 * The current user's processes (a game another account runs on this machine starts no recording).
 * `KEYFRAME_GAME_PROCESS_ROOT` keeps only those whose executable lies in that folder: suites that run
 * stand-in games side by side each see their own.
 */
export function systemProcessLister(variables: NodeJS.ProcessEnv = process.env): ProcessLister {
  const root = variables.KEYFRAME_GAME_PROCESS_ROOT;
  if (!root) return () => listProcesses();
  // Executables are listed by their real path (links resolved), so the folder is compared as one too.
  const prefix = `${realpathSync(path.resolve(root))}${path.sep}`;
  return async () => (await listProcesses()).filter((running) => running.executable.startsWith(prefix));
}
