// GameFiles under `keyframe tape record`: reads the disk, and tells the tape what each read found
// (a file's copy, a folder's listing, or that nothing is there) whenever it differs from what the tape
// said last of that place, so a replay serves the same.
import { createHash } from 'node:crypto';
import { GameFilesReader, isMissingFileError, type GameFileEntry, type GameFiles } from '../../sdk/game-files.js';
import type { GameFileLocations } from './game-file-locations.js';
import type { ReadGameFile, TapeWriter } from './tape-writer.js';

const THERE = 'there';
const MISSING = 'missing';

export class RecordedGameFiles extends GameFilesReader {
  /** What the tape last said of each location. */
  readonly #said = new Map<string, string>();

  constructor(
    private readonly disk: GameFiles,
    private readonly locations: GameFileLocations,
    private readonly writer: TapeWriter,
  ) {
    super();
  }

  read(file: string): Promise<Buffer> {
    return this.taped(
      file,
      () => this.disk.read(file),
      (bytes) => ({ bytes }),
    );
  }

  list(folder: string): Promise<GameFileEntry[]> {
    return this.taped(
      folder,
      () => this.disk.list(folder),
      (entries) => ({ entries }),
    );
  }

  async exists(file: string): Promise<boolean> {
    const there = await this.disk.exists(file);
    this.tell(file, { exists: there });
    return there;
  }

  private async taped<T>(file: string, read: () => Promise<T>, found: (value: T) => ReadGameFile): Promise<T> {
    let value: T;
    try {
      value = await read();
    } catch (error) {
      if (isMissingFileError(error)) this.tell(file, { exists: false });
      throw error;
    }
    this.tell(file, found(value));
    return value;
  }

  private tell(file: string, found: ReadGameFile): void {
    const location = this.locations.locate(file);
    const said = this.#said.get(location);
    const saying = summary(found);
    // "It is there" adds nothing to a copy or a listing of it.
    if (saying === said || (saying === THERE && said !== undefined && said !== MISSING)) return;
    this.#said.set(location, saying);
    this.writer.gameFile(location, found);
  }
}

function summary(found: ReadGameFile): string {
  if ('bytes' in found) return `file ${createHash('sha256').update(found.bytes).digest('hex')}`;
  if ('entries' in found) return `folder ${JSON.stringify(found.entries)}`;
  return found.exists ? THERE : MISSING;
}
