// The signed-in user's tokens on disk: one JSON file in the data folder that only the user can
// read (0600), written atomically. No OS keychain is reachable from a plain Node service everywhere.
import { chmod, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { injectable } from 'tsyringe';
import { ServiceOptions } from '../service-options.js';
import { writeFileAtomic } from '../support/atomic-file.js';

export interface Tokens {
  readonly accessToken: string;
  readonly refreshToken: string;
}

@injectable()
export class TokenStore {
  constructor(private readonly options: ServiceOptions) {}

  get filePath(): string {
    return path.join(this.options.dataFolder, 'account', 'tokens.json');
  }

  /** The stored tokens; `undefined` when signed out or the file is unreadable. */
  async load(): Promise<Tokens | undefined> {
    let value: unknown;
    try {
      value = JSON.parse(await readFile(this.filePath, 'utf8'));
    } catch {
      return undefined;
    }
    return isTokens(value) ? { accessToken: value.accessToken, refreshToken: value.refreshToken } : undefined;
  }

  async save(tokens: Tokens): Promise<void> {
    await writeFileAtomic(this.filePath, `${JSON.stringify({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken })}\n`);
    // The temp file is created 0600, but a umask or a file system may have widened it.
    await chmod(this.filePath, 0o600).catch(() => undefined);
  }

  async clear(): Promise<void> {
    await rm(this.filePath, { force: true });
  }
}

function isTokens(value: unknown): value is Tokens {
  if (typeof value !== 'object' || value === null) return false;
  const { accessToken, refreshToken } = value as Record<string, unknown>;
  return typeof accessToken === 'string' && accessToken !== '' && typeof refreshToken === 'string' && refreshToken !== '';
}
