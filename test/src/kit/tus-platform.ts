// A local stand-in for the hosting platform, on 127.0.0.1: a tus server (@tus/server with its file
// store) behind a bearer-token check, the post-processing status endpoint and an OAuth 2 token
// endpoint. Tests issue and revoke tokens, hold PATCH requests to stop an upload part-way, restart
// the platform on the same port, and read what arrived from its store and its request log. Also: a
// generated video imported into the library, for suites that upload.
import { createHmac, randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { ContentItem } from '@keyframe/core/protocol';
import { FileStore } from '@tus/file-store';
import { Server as TusServer } from '@tus/server';
import { importGeneratedVideo } from './imported-video.js';
import { createTempFolder, type ProtocolClient, type TempFolder } from '@keyframe/integration-testkit';

export interface PlatformTokens {
  accessToken: string;
  refreshToken: string;
}

/** A tus request that passed the token check, with the offsets the store had before and after it. */
export interface TusRequestRecord {
  method: string;
  uploadId: string | undefined;
  status: number;
  /** PATCH: the `Upload-Offset` the client sent. */
  offsetSent?: number;
  /** PATCH: the stored size once the server was done with it. */
  storedAfter?: number;
}

export interface RenewalRecord {
  grantType: string | null;
  clientId: string | null;
  granted: boolean;
}

export interface StoredUpload {
  offset: number;
  size: number | undefined;
  metadata: Record<string, string | null>;
  file: string;
}

export interface TusPlatformOptions {
  /** Status answers of `processing` before `ready`; default 1. */
  processingPolls?: number;
  /** Lifetime of access tokens the token endpoint issues; default one hour. */
  renewedTokenSeconds?: number;
}

interface HeldPatch {
  readonly release: (proceed: boolean) => void;
}

const TUS_PATH = '/files';

export class TusPlatform {
  readonly tusRequests: TusRequestRecord[] = [];
  readonly renewals: RenewalRecord[] = [];
  private readonly createdIds: string[] = [];
  /** Requests refused for a missing, unknown or revoked token. */
  unauthorized = 0;
  private readonly accessTokens = new Set<string>();
  private readonly refreshTokens = new Set<string>();
  private readonly polls = new Map<string, number>();
  private readonly secret = randomBytes(32);
  private readonly held = new Set<HeldPatch>();
  private patchesAllowed = Number.POSITIVE_INFINITY;
  private heldWaiters: (() => void)[] = [];
  private server: http.Server | undefined;
  private tus: TusServer;
  private port = 0;

  private constructor(
    readonly store: TempFolder,
    private readonly options: TusPlatformOptions,
  ) {
    this.tus = this.createTusServer();
  }

  static async start(options: TusPlatformOptions = {}): Promise<TusPlatform> {
    const platform = new TusPlatform(await createTempFolder('keyframe-platform-'), options);
    await platform.listen();
    return platform;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The `KEYFRAME_*` variables that point a service at this platform. */
  environment(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
    return {
      KEYFRAME_ACCOUNT_TOKEN_URL: `${this.origin}/oauth/token`,
      KEYFRAME_UPLOAD_URL: `${this.origin}${TUS_PATH}/`,
      KEYFRAME_UPLOAD_PROCESSING_URL: `${this.origin}/processing/`,
      ...extra,
    };
  }

  /** A new session, as the identity provider would hand it out: a JWT access token valid for `seconds` (negative: expired). */
  issueTokens(seconds = 3600): PlatformTokens {
    const tokens = { accessToken: this.jwt(seconds), refreshToken: randomBytes(24).toString('base64url') };
    this.accessTokens.add(tokens.accessToken);
    this.refreshTokens.add(tokens.refreshToken);
    return tokens;
  }

  /** Every access token issued so far is refused from now on (the JWTs themselves have not expired). */
  revokeAccessTokens(): void {
    this.accessTokens.clear();
  }

  /** Every refresh token issued so far is refused: renewal fails with `invalid_grant`. */
  revokeRefreshTokens(): void {
    this.refreshTokens.clear();
  }

  /** Lets `count` more PATCH requests through and holds the ones after them until `releasePatches`. */
  holdPatchesAfter(count: number): void {
    this.patchesAllowed = count;
  }

  /** Resolves when a PATCH request is being held. */
  heldPatch(): Promise<void> {
    if (this.held.size > 0) return Promise.resolve();
    return new Promise((resolve) => this.heldWaiters.push(resolve));
  }

  /** Drops the held requests, as a server does with connections of clients that are gone. */
  dropHeldPatches(): void {
    for (const patch of [...this.held]) patch.release(false);
  }

  /** Stops holding; held requests go on to the tus server. */
  releasePatches(): void {
    this.patchesAllowed = Number.POSITIVE_INFINITY;
    for (const patch of [...this.held]) patch.release(true);
  }

  /** The ids of the uploads created so far, oldest first (some may have been terminated since). */
  get uploadIds(): readonly string[] {
    return this.createdIds;
  }

  /** What the store holds for `id`; `undefined` when it holds nothing (never created, or terminated). */
  async storedUpload(id: string): Promise<StoredUpload | undefined> {
    const datastore = this.tus.datastore as FileStore;
    try {
      const upload = await datastore.getUpload(id);
      return { offset: upload.offset, size: upload.size, metadata: upload.metadata ?? {}, file: path.join(this.store.path, id) };
    } catch {
      return undefined;
    }
  }

  /** Drops every connection (held requests included) and listens again on the same port with a new tus server over the same store. */
  async restart(): Promise<void> {
    await this.close();
    this.tus = this.createTusServer();
    await this.listen();
  }

  async stop(): Promise<void> {
    await this.close();
    await this.store.remove();
  }

  private createTusServer(): TusServer {
    const server = new TusServer({ path: TUS_PATH, datastore: new FileStore({ directory: this.store.path }) });
    server.on('POST_CREATE', (_request, upload) => {
      this.createdIds.push(upload.id);
    });
    return server;
  }

  private listen(): Promise<void> {
    const server = http.createServer((request, response) => {
      this.handle(request, response).catch(() => {
        if (!response.headersSent) response.writeHead(500).end();
        else response.destroy();
      });
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => {
        this.port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  private async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.dropHeldPatches();
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  }

  private async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.origin);
    if (url.pathname === '/oauth/token' && request.method === 'POST') return this.renew(request, response);
    if (url.pathname.startsWith('/processing/') && request.method === 'GET') {
      if (!this.authorized(request, response)) return;
      return this.processingStatus(decodeURIComponent(url.pathname.slice('/processing/'.length)), response);
    }
    if (url.pathname === TUS_PATH || url.pathname.startsWith(`${TUS_PATH}/`)) {
      if (request.method !== 'OPTIONS' && !this.authorized(request, response)) return;
      return this.tusRequest(request, response, url.pathname.slice(TUS_PATH.length + 1) || undefined);
    }
    json(response, 404, { error: 'not found' });
  }

  private async tusRequest(request: http.IncomingMessage, response: http.ServerResponse, uploadId: string | undefined): Promise<void> {
    const method = request.method ?? 'GET';
    if (method === 'PATCH' && !(await this.passHold(request))) {
      request.socket.destroy();
      return;
    }
    const offsetSent = method === 'PATCH' ? Number(request.headers['upload-offset']) : undefined;
    await this.tus.handle(request, response);
    const id = uploadId ?? (method === 'POST' ? this.createdIds.at(-1) : undefined);
    const record: TusRequestRecord = { method, uploadId: id, status: response.statusCode };
    if (method === 'PATCH' && id) {
      record.offsetSent = offsetSent;
      record.storedAfter = await stat(path.join(this.store.path, id)).then(
        (info) => info.size,
        () => -1,
      );
    }
    this.tusRequests.push(record);
  }

  /** True when the PATCH may go on; false when it was held and then dropped (restart, client gone). */
  private passHold(request: http.IncomingMessage): Promise<boolean> {
    if (this.patchesAllowed > 0) {
      this.patchesAllowed--;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const patch: HeldPatch = {
        release: (proceed) => {
          this.held.delete(patch);
          request.socket.off('close', onClose);
          resolve(proceed && !request.socket.destroyed);
        },
      };
      const onClose = () => patch.release(false);
      request.socket.once('close', onClose);
      this.held.add(patch);
      for (const waiter of this.heldWaiters.splice(0)) waiter();
    });
  }

  private authorized(request: http.IncomingMessage, response: http.ServerResponse): boolean {
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (token !== undefined && this.accessTokens.has(token) && !this.expired(token)) return true;
    this.unauthorized++;
    request.resume();
    json(response, 401, { error: 'invalid_token' }, { 'www-authenticate': 'Bearer error="invalid_token"', 'tus-resumable': '1.0.0' });
    return false;
  }

  private processingStatus(id: string, response: http.ServerResponse): void {
    const upload = this.tus.datastore as FileStore;
    void upload.getUpload(id).then(
      (stored) => {
        if (stored.size === undefined || stored.offset !== stored.size)
          return json(response, 404, { message: 'No finished upload with that id' });
        const polls = (this.polls.get(id) ?? 0) + 1;
        this.polls.set(id, polls);
        if (polls <= (this.options.processingPolls ?? 1)) return json(response, 200, { status: 'processing' });
        return json(response, 200, { status: 'ready', url: `${this.origin}/watch/${id}` });
      },
      () => json(response, 404, { message: 'No upload with that id' }),
    );
  }

  private async renew(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const form = new URLSearchParams(await readBody(request));
    const refreshToken = form.get('refresh_token');
    const granted = form.get('grant_type') === 'refresh_token' && refreshToken !== null && this.refreshTokens.has(refreshToken);
    this.renewals.push({ grantType: form.get('grant_type'), clientId: form.get('client_id'), granted });
    if (!granted) return json(response, 400, { error: 'invalid_grant', error_description: 'The refresh token is invalid or has expired' });
    this.refreshTokens.delete(refreshToken);
    const tokens = this.issueTokens(this.options.renewedTokenSeconds ?? 3600);
    json(response, 200, {
      access_token: tokens.accessToken,
      refresh_token: tokens.refreshToken,
      token_type: 'Bearer',
      expires_in: this.options.renewedTokenSeconds ?? 3600,
    });
  }

  private jwt(seconds: number): string {
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: 'player-1', exp: Math.floor(Date.now() / 1000) + seconds, jti: randomBytes(8).toString('hex') })}`;
    return `${unsigned}.${createHmac('sha256', this.secret).update(unsigned).digest('base64url')}`;
  }

  private expired(token: string): boolean {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp: number };
    return payload.exp * 1000 <= Date.now();
  }
}

function json(response: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

async function readBody(request: http.IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of request) text += String(chunk);
  return text;
}

/** A library item to upload: a generated 3 s video (about 0.8 MB) imported into `contentFolder`, which becomes the content folder. */
export async function importUploadableVideo(frontend: ProtocolClient, sourceFolder: string, contentFolder: string): Promise<ContentItem> {
  frontend.send('UpdateSettings', { contentFolder });
  await frontend.until('Settings', (settings) => path.resolve(settings.contentFolder) === path.resolve(contentFolder), 10000);
  return importGeneratedVideo(frontend, path.join(sourceFolder, 'upload source'), 'clutch round', { seconds: 3 });
}
