// The data folder's instance secret: made once, readable by its owner only (0600), so that a second
// `keyframe --app` can tell the Keyframe of its data folder from any other program on the lock's port,
// and the running one can tell that program from a web page (proofs, never the secret, go over HTTP).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createFileComplete } from './atomic-file.js';
import { errorCode } from './file-errors.js';

export const INSTANCE_SECRET_FILE_NAME = 'instance-secret';

const VALID_SECRET = /^[0-9a-f]{64}$/;

/** What a proof vouches for; part of the signed text, so a proof made for one cannot be replayed as the other. */
export type ProofPurpose = 'identity' | 'show-window';

/** The secret of `dataFolder`, making it first when there is none. */
export async function instanceSecret(dataFolder: string): Promise<string> {
  const file = path.join(dataFolder, INSTANCE_SECRET_FILE_NAME);
  // Whoever creates it first wins (nothing is replaced); everyone reads that one.
  if ((await readSecret(file)) === undefined) await createFileComplete(file, `${randomBytes(32).toString('hex')}\n`, 0o600);
  const secret = await readSecret(file);
  if (secret === undefined) throw new Error(`${file} vanished right after it was written`);
  return secret;
}

/** The secret of `dataFolder` when it has one; never makes it (a launcher reading another process's folder). */
export function existingInstanceSecret(dataFolder: string): Promise<string | undefined> {
  return readSecret(path.join(dataFolder, INSTANCE_SECRET_FILE_NAME));
}

export function instanceProof(secret: string, purpose: ProofPurpose, ...parts: string[]): string {
  return createHmac('sha256', secret)
    .update(['keyframe', purpose, ...parts].join('\0'))
    .digest('hex');
}

export function isValidInstanceProof(proof: unknown, secret: string, purpose: ProofPurpose, ...parts: string[]): boolean {
  if (typeof proof !== 'string') return false;
  const expected = Buffer.from(instanceProof(secret, purpose, ...parts));
  const given = Buffer.from(proof);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function readSecret(file: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw new Error(`Cannot read the instance secret ${file}: ${(error as Error).message}`, { cause: error });
  }
  const secret = text.trim();
  if (!VALID_SECRET.test(secret)) {
    throw new Error(`${file} is damaged (not 64 hexadecimal digits): delete it while no Keyframe runs, and start again.`);
  }
  return secret;
}
