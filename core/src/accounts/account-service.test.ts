import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_PLATFORM_ENDPOINTS } from '../platform-endpoints.js';
import { RecordedEvents } from '../testing/fixtures.js';
import { ServiceOptions } from '../service-options.js';
import { EVENT_SINK } from '../protocol/event-sink.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { AccountService, SignedOut, type SignOutReason } from './account-service.js';
import { TokenStore } from './token-store.js';

const jwt = (secondsLeft: number, id: string) =>
  ['{"alg":"none"}', JSON.stringify({ exp: Math.floor(Date.now() / 1000) + secondsLeft, id }), 'x']
    .map((part, index) => (index < 2 ? Buffer.from(part).toString('base64url') : part))
    .join('.');

/** An OAuth 2 token endpoint on loopback that answers as told and keeps the forms it received. */
class TokenEndpoint {
  readonly forms: URLSearchParams[] = [];
  answer: { status: number; body: object } = { status: 200, body: { access_token: jwt(3600, 'renewed'), refresh_token: 'refresh-2' } };
  private constructor(private readonly server: http.Server) {}

  static async start(): Promise<TokenEndpoint> {
    const server = http.createServer();
    const endpoint = new TokenEndpoint(server);
    server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        endpoint.forms.push(new URLSearchParams(body));
        setTimeout(
          () =>
            response.writeHead(endpoint.answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(endpoint.answer.body)),
          20,
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return endpoint;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/token`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe('AccountService', () => {
  let folder: string;
  let endpoint: TokenEndpoint;
  let events: RecordedEvents;
  let store: TokenStore;
  let account: AccountService;
  const signOuts: SignOutReason[] = [];

  let app: TestApp | undefined;

  /** The account as a (new) run of the service has it, on the same data folder. */
  const start = async (tokenUrl: string) => {
    await app?.dispose();
    const options = new ServiceOptions(folder, 0, undefined, [], folder, { ...DEFAULT_PLATFORM_ENDPOINTS, tokenUrl });
    app = await createTestApp({
      dataFolder: folder,
      overrides: [
        [ServiceOptions, options],
        [EVENT_SINK, events],
      ],
    });
    store = app.resolve(TokenStore);
    account = app.resolve(AccountService);
    account.onSignOut(async (reason) => {
      // Those stopping work may still use the tokens after a Logout.
      if (reason === 'logout') expect(await account.accessToken()).to.be.a('string');
      signOuts.push(reason);
    });
  };

  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-account-'));
    endpoint = await TokenEndpoint.start();
    events = new RecordedEvents();
    signOuts.length = 0;
    await start(endpoint.url);
  });
  afterEach(async () => {
    await endpoint.close();
    await app?.dispose();
    app = undefined;
    await rm(folder, { recursive: true, force: true });
  });

  it('hands out a JWT that is still valid as it is, and opaque tokens as they are', async () => {
    const valid = jwt(3600, 'valid');
    await account.login({ accessToken: valid, refreshToken: 'refresh-1' });
    expect(await account.accessToken()).to.equal(valid);
    await account.login({ accessToken: 'opaque', refreshToken: 'refresh-1' });
    expect(await account.accessToken()).to.equal('opaque');
    expect(endpoint.forms).to.have.length(0);
  });

  it('renews an expiring JWT once for everyone waiting, and keeps the new tokens', async () => {
    await account.login({ accessToken: jwt(10, 'expiring'), refreshToken: 'refresh-1' });
    const tokens = await Promise.all([account.accessToken(), account.accessToken(), account.accessToken()]);
    expect(new Set(tokens).size).to.equal(1);
    expect(endpoint.forms.map((form) => Object.fromEntries(form))).to.deep.equal([
      { grant_type: 'refresh_token', refresh_token: 'refresh-1', client_id: 'keyframe-desktop' },
    ]);
    expect(await store.load()).to.deep.equal({ accessToken: tokens[0], refreshToken: 'refresh-2' });
  });

  it('renews after a refusal only when the refused token is still the current one', async () => {
    await account.login({ accessToken: 'opaque-1', refreshToken: 'refresh-1' });
    const renewed = await account.renewAfterRejection('opaque-1');
    expect(await account.renewAfterRejection('opaque-1')).to.equal(renewed);
    expect(endpoint.forms).to.have.length(1);
  });

  it('keeps a refresh token the endpoint does not rotate', async () => {
    endpoint.answer = { status: 200, body: { access_token: 'opaque-2' } };
    await account.login({ accessToken: 'opaque-1', refreshToken: 'refresh-1' });
    await account.renewAfterRejection('opaque-1');
    expect(await store.load()).to.deep.equal({ accessToken: 'opaque-2', refreshToken: 'refresh-1' });
  });

  it('signs out with a dialog when the endpoint refuses the grant', async () => {
    endpoint.answer = { status: 400, body: { error: 'invalid_grant', error_description: 'refresh token expired' } };
    await account.login({ accessToken: jwt(-60, 'expired'), refreshToken: 'refresh-1' });
    const failure = await account.accessToken().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).to.be.instanceOf(SignedOut);
    expect(account.isSignedIn).to.equal(false);
    expect(await store.load()).to.equal(undefined);
    expect(signOuts).to.deep.equal(['expired']);
    expect(events.of('ShowModal')).to.have.length(1);
    expect(events.of('ShowModal')[0]).to.deep.include({ title: 'Signed out', type: 'warning' });
    expect(events.of('ShowModal')[0]!.description).to.include('refresh token expired');
  });

  it('stays signed in when the endpoint fails or cannot be reached', async () => {
    endpoint.answer = { status: 503, body: {} };
    await account.login({ accessToken: jwt(-60, 'expired'), refreshToken: 'refresh-1' });
    expect(
      await account.accessToken().then(
        () => undefined,
        (error: unknown) => error,
      ),
    )
      .to.be.instanceOf(Error)
      .and.not.instanceOf(SignedOut);
    expect(account.isSignedIn).to.equal(true);
    await endpoint.close();
    await start('http://127.0.0.1:9/token');
    await account.login({ accessToken: jwt(-60, 'expired'), refreshToken: 'refresh-1' });
    const failure = await account.accessToken().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).to.be.instanceOf(Error).and.not.instanceOf(SignedOut);
    expect(account.isSignedIn).to.equal(true);
    expect(events.of('ShowModal')).to.deep.equal([]);
    endpoint = await TokenEndpoint.start();
  });

  it('Logout lets work stop with the tokens, then forgets them; a new run starts signed out', async () => {
    await account.login({ accessToken: 'opaque-1', refreshToken: 'refresh-1' });
    const logout = account.logout();
    expect(account.isSignedIn).to.equal(false);
    await logout;
    expect(signOuts).to.deep.equal(['logout']);
    await account.accessToken().then(
      () => expect.fail('signed out'),
      (error: unknown) => expect(error).to.be.instanceOf(SignedOut),
    );
    await start(endpoint.url);
    await account.load();
    expect(account.isSignedIn).to.equal(false);
  });

  it('picks up the stored session at start', async () => {
    await account.login({ accessToken: 'opaque-1', refreshToken: 'refresh-1' });
    await start(endpoint.url);
    await account.load();
    expect(await account.accessToken()).to.equal('opaque-1');
  });
});
