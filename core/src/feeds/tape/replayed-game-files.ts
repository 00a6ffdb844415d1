// GameFiles on replay: what the tape's game file lines say, as far as the replay has come. A place
// the tape says nothing of is missing, as a file that is not there is live; with `disk`, such a place
// inside the replay's own GamePaths folders (`--game-paths`, a test's temp folder) is read from there.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { GameFilesReader, missingGameFile, type GameFileEntry, type GameFiles } from '../../sdk/game-files.js';
import { GameFileLocations } from './game-file-locations.js';
import type { GameFileState, GameFileTapeEntry } from './tape-format.js';

export class ReplayedGameFiles extends GameFilesReader {
  readonly #states = new Map<string, GameFileState>();

  constructor(
    private readonly locations: GameFileLocations,
    private readonly disk?: GameFiles,
  ) {
    super();
  }

  /** The tape's line has been reached: from now on its place reads as it says. */
  apply(entry: GameFileTapeEntry): void {
    this.#states.set(entry.gameFile, entry.state);
  }

  async read(file: string): Promise<Buffer> {
    const { state, location } = this.stateOf(file);
    if (state && 'snapshot' in state) return readFile(state.absolutePath);
    if (state === undefined && this.readsDisk(location)) return this.disk!.read(file);
    throw missingGameFile(file, 'open');
  }

  async list(folder: string): Promise<GameFileEntry[]> {
    const { state, location } = this.stateOf(folder);
    if (state && 'entries' in state) return state.entries.map((entry) => ({ ...entry, modifiedAt: new Date(entry.modifiedAt) }));
    if (state === undefined && this.readsDisk(location)) return this.disk!.list(folder);
    throw missingGameFile(folder, 'scandir');
  }

  async exists(file: string): Promise<boolean> {
    const { state, location } = this.stateOf(file);
    if (state) return !('exists' in state) || state.exists;
    if (this.listedInParent(file)) return true;
    return this.readsDisk(location) ? this.disk!.exists(file) : false;
  }

  private stateOf(file: string): { state: GameFileState | undefined; location: string } {
    const location = this.locations.locate(file);
    return { state: this.#states.get(location), location };
  }

  private listedInParent(file: string): boolean {
    const parent = this.#states.get(this.locations.locate(path.dirname(file)));
    return parent !== undefined && 'entries' in parent && parent.entries.some((entry) => entry.name === path.basename(file));
  }

  private readsDisk(location: string): boolean {
    return this.disk !== undefined && GameFileLocations.isUnderGamePaths(location);
  }
}
