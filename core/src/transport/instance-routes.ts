// How a second `keyframe --app` recognises this service and asks it to show its window (docs/security.md):
// POST /api/instance/identity {challenge} → {instanceId, proof, nonce}, the proof made with the data folder's
// secret over the launcher's challenge; POST /api/instance/show-window {nonce, proof} with the launcher's proof
// over that nonce. Only programs run by the data folder's owner can read the secret. Web pages are kept out
// before the secret is even asked for: any Origin or fetch metadata is refused (the launcher sends none).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { DESKTOP_WINDOW, type DesktopWindow } from '../platform/desktop-window.js';
import { instanceProof, isValidInstanceProof } from '../support/instance-secret.js';
import { Logger } from '../support/logger.js';
import type { HttpRoutes } from './http-routes.js';

export const IDENTITY_PATH = '/api/instance/identity';
export const SHOW_WINDOW_PATH = '/api/instance/show-window';

/** Who this service is: the instance id of its data folder lock, and the folder's secret. */
export class InstanceIdentity {
  constructor(
    readonly instanceId: string,
    readonly secret: string,
  ) {}
}

const MAX_BODY_BYTES = 4096;
const NONCE_LIFETIME_MS = 30_000;
/** Nonces not yet used; a program asking for many only pushes out its own oldest ones. */
const MAX_OPEN_NONCES = 32;

@injectable()
export class InstanceRoutes {
  private readonly nonces = new Map<string, number>();
  private readonly logger: Logger;

  constructor(
    private readonly identity: InstanceIdentity,
    @inject(DESKTOP_WINDOW) private readonly window: DesktopWindow,
    logger: Logger,
  ) {
    this.logger = logger.child('instance');
  }

  install(routes: HttpRoutes): void {
    routes.add(IDENTITY_PATH, (request, response) => this.serve(request, response, (body) => this.identify(body)));
    routes.add(SHOW_WINDOW_PATH, (request, response) => this.serve(request, response, (body) => this.showWindow(body)));
  }

  private identify(body: Record<string, unknown>): Answer {
    const { challenge } = body;
    if (typeof challenge !== 'string' || !/^[0-9a-f]{32,128}$/.test(challenge)) return [400, { error: 'challenge: 32 to 128 hex digits' }];
    const nonce = this.issueNonce();
    const { instanceId, secret } = this.identity;
    return [200, { instanceId, proof: instanceProof(secret, 'identity', instanceId, challenge), nonce }];
  }

  private async showWindow(body: Record<string, unknown>): Promise<Answer> {
    const { nonce, proof } = body;
    if (typeof nonce !== 'string' || !this.takeNonce(nonce) || !isValidInstanceProof(proof, this.identity.secret, 'show-window', nonce)) {
      this.logger.warn('a request to show the window was refused: no valid proof');
      return [403, { error: 'no valid proof' }];
    }
    if (!this.window.show) return [409, { error: `this Keyframe has no app window (${this.window.kind})` }];
    this.logger.info('another launch asked for the window');
    await this.window.show();
    return [200, { shown: true }];
  }

  private issueNonce(): string {
    const now = Date.now();
    for (const [nonce, expires] of this.nonces) if (expires < now) this.nonces.delete(nonce);
    if (this.nonces.size >= MAX_OPEN_NONCES) this.nonces.delete(this.nonces.keys().next().value!);
    const nonce = randomBytes(16).toString('hex');
    this.nonces.set(nonce, now + NONCE_LIFETIME_MS);
    return nonce;
  }

  /** True once per nonce, while it has not expired. */
  private takeNonce(nonce: string): boolean {
    const expires = this.nonces.get(nonce);
    this.nonces.delete(nonce);
    return expires !== undefined && expires >= Date.now();
  }

  private async serve(
    request: IncomingMessage,
    response: ServerResponse,
    handle: (body: Record<string, unknown>) => Answer | Promise<Answer>,
  ) {
    const refusal = browserRefusal(request);
    const body = refusal ? undefined : await readJsonObject(request);
    const [status, answer] = refusal ? [403, { error: refusal }] : body ? await handle(body) : [400, { error: 'expected a JSON object' }];
    response.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    response.end(JSON.stringify(answer));
  }
}

type Answer = [number, Record<string, unknown>];

/** Only a POST of JSON from a program: a browser always sends Origin or fetch metadata with a POST. */
function browserRefusal(request: IncomingMessage): string | undefined {
  if (request.method !== 'POST') return 'POST only';
  if (
    request.headers.origin !== undefined ||
    request.headers['sec-fetch-site'] !== undefined ||
    request.headers['sec-fetch-mode'] !== undefined
  ) {
    return 'not for web pages';
  }
  if (!request.headers['content-type']?.startsWith('application/json')) return 'expected application/json';
  return undefined;
}

async function readJsonObject(request: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  try {
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
