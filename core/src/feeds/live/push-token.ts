// The secret a game puts in every push (Valve GSI's `"auth" { "token" … }`): made once per data folder,
// kept in it, and the same at every start, so the config file written into the game stays valid.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createFileComplete } from '../../support/atomic-file.js';

/** The token file's name in the data folder. */
export const PUSH_TOKEN_FILE_NAME = 'game-push-token';

/** Letters and digits only: a Valve KeyValues string needs no escaping then. */
const VALID_TOKEN = /^[A-Za-z0-9]{16,128}$/;

export function pushTokenFile(dataFolder: string): string {
  return path.join(dataFolder, PUSH_TOKEN_FILE_NAME);
}

/** The token of a data folder, as `LiveFeedsOptions.pushToken` and `PlayOptions.pushToken` take it. */
export function dataFolderPushToken(dataFolder: string): () => Promise<string> {
  const store = new PushTokenStore(pushTokenFile(dataFolder));
  return () => store.token();
}

/** Reads the token of a data folder, making it first when there is none. */
export class PushTokenStore {
  #token: Promise<string> | undefined;

  constructor(private readonly file: string) {}

  /** The token; rejects with what to do when the file is there but unreadable or damaged. */
  token(): Promise<string> {
    if (this.#token === undefined) {
      const token = this.readOrCreate();
      this.#token = token;
      // A failure is not remembered: the user may fix the file and switch the integration on again.
      token.catch(() => {
        if (this.#token === token) this.#token = undefined;
      });
    }
    return this.#token;
  }

  private async readOrCreate(): Promise<string> {
    const existing = await this.read();
    if (existing !== undefined) return existing;
    await this.create(randomBytes(16).toString('hex'));
    // Whoever created it first (another integration, another start) wins; everyone reads that one.
    const created = await this.read();
    if (created === undefined) throw new Error(`${this.file} vanished right after it was written`);
    return created;
  }

  private async read(): Promise<string | undefined> {
    const text = await readFile(this.file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw new Error(`Cannot read the game push token ${this.file}: ${error.message}`, { cause: error });
    });
    if (text === undefined) return undefined;
    const token = text.trim();
    if (!VALID_TOKEN.test(token)) {
      throw new Error(`The game push token ${this.file} is damaged: delete it, switch the integration off and on, and restart the game.`);
    }
    return token;
  }

  /**
   * Writes the whole file under a temp name (owner-only), then links it into place: the link fails
   * when the file exists, so a token someone else made in the meantime is never overwritten, and
   * nobody ever reads half a token.
   */
  private async create(token: string): Promise<void> {
    await createFileComplete(this.file, `${token}\n`);
  }
}
