// The launcher's side of instance-routes.ts: finds the Keyframe that holds a data folder (its lock), checks
// that what answers on the lock's port proves it knows the folder's secret, and asks it to show its window.
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import path from 'node:path';
import { isLockOwnerAlive, LOCK_FILE_NAME, readLockOwner, type LockOwner } from '../support/data-folder-lock.js';
import { existingInstanceSecret, instanceProof, isValidInstanceProof } from '../support/instance-secret.js';
import { LOOPBACK_HOST } from '../service-options.js';
import { IDENTITY_PATH, SHOW_WINDOW_PATH } from './instance-routes.js';

/** How long a Keyframe that holds the lock but does not listen yet (port 0) is waited for. */
const LISTENING_WAIT_MS = 30_000;
const REQUEST_TIMEOUT_MS = 5_000;

/** The port the lock names is answered by something that is not the Keyframe of that data folder. */
export class NotKeyframeError extends Error {
  override name = 'NotKeyframeError';
}

export class RunningInstance {
  private constructor(
    readonly owner: LockOwner,
    private readonly secret: string,
    private readonly nonce: string,
  ) {}

  get url(): string {
    return `http://${LOOPBACK_HOST}:${this.owner.port}/`;
  }

  /**
   * The live Keyframe of `dataFolder`, its identity checked; undefined when none runs. Throws `NotKeyframeError`
   * when the lock's port is answered by another program, or by nothing.
   */
  static async find(dataFolder: string): Promise<RunningInstance | undefined> {
    const owner = await listeningOwner(dataFolder);
    if (!owner) return undefined;
    const lockFile = path.join(dataFolder, LOCK_FILE_NAME);
    const secret = await existingInstanceSecret(dataFolder);
    const notKeyframe = (what: string) =>
      new NotKeyframeError(
        `${lockFile} says Keyframe runs as pid ${owner.pid} on port ${owner.port}, but ${what}. ` +
          `If that Keyframe is stuck, stop pid ${owner.pid}; if no Keyframe runs, delete ${lockFile} and start again.`,
      );
    if (!secret) throw notKeyframe('the data folder has no instance secret to check it by');
    const challenge = randomBytes(32).toString('hex');
    let answer: Record<string, unknown> | undefined;
    try {
      answer = (await postJson(owner.port, IDENTITY_PATH, { challenge })).body;
    } catch (error) {
      throw notKeyframe(`nothing answers there (${(error as Error).message})`);
    }
    const { instanceId, proof, nonce } = answer ?? {};
    if (
      instanceId !== owner.instanceId ||
      typeof nonce !== 'string' ||
      !isValidInstanceProof(proof, secret, 'identity', owner.instanceId, challenge)
    ) {
      throw notKeyframe('the program listening there is not that Keyframe (it cannot prove it holds this data folder)');
    }
    return new RunningInstance(owner, secret, nonce);
  }

  /** Asks the running Keyframe to bring its window to the front (or open it); false when it runs without a window. */
  async showWindow(): Promise<boolean> {
    const { status, body } = await postJson(this.owner.port, SHOW_WINDOW_PATH, {
      nonce: this.nonce,
      proof: instanceProof(this.secret, 'show-window', this.nonce),
    });
    if (status === 409) return false;
    if (status !== 200)
      throw new Error(`The running Keyframe (pid ${this.owner.pid}) did not show its window: ${String(body?.error ?? status)}`);
    return true;
  }
}

/** The live owner of the lock once it listens; undefined when no live Keyframe holds the folder. */
async function listeningOwner(dataFolder: string): Promise<LockOwner | undefined> {
  const deadline = Date.now() + LISTENING_WAIT_MS;
  for (;;) {
    const owner = await readLockOwner(dataFolder);
    if (!owner || !(await isLockOwnerAlive(owner))) return undefined;
    if (owner.port > 0) return owner;
    if (Date.now() > deadline)
      throw new NotKeyframeError(`The Keyframe of ${dataFolder} (pid ${owner.pid}) has not started listening: is it stuck?`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** POSTs JSON to the loopback port: the status and the answer's JSON object (also of a refusal), undefined when it is none. */
function postJson(port: number, pathname: string, body: object): Promise<{ status: number; body: Record<string, unknown> | undefined }> {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: LOOPBACK_HOST,
        port,
        path: pathname,
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data) },
        timeout: REQUEST_TIMEOUT_MS,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          try {
            const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            resolve({ status, body: typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined });
          } catch {
            resolve({ status, body: undefined });
          }
        });
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS / 1000} s`)));
    outgoing.on('error', reject);
    outgoing.end(data);
  });
}
