// Sign-in with the real service: tokens kept in a file only the user can read and never in the log,
// an expired access token renewed at the token endpoint before use, a refused renewal signs the user
// out with a dialog, and `Logout` forgets the tokens and cancels the uploads that needed them.
import 'reflect-metadata';
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { type ProtocolClient } from '@keyframe/integration-testkit';
import { serviceUnderTest } from '../kit/service-under-test.js';
import { importUploadableVideo, TusPlatform, type PlatformTokens } from '../kit/tus-platform.js';

const UPLOAD_DEADLINE_MS = 60000;

describe('sign-in', function () {
  this.timeout(120000);
  const under = serviceUnderTest();
  let platform: TusPlatform;
  beforeEach(async () => {
    platform = await TusPlatform.start();
  });
  afterEach(() => platform.stop());

  const tokensFile = () => path.join(under.data.path, 'account', 'tokens.json');
  const logText = () => readFile(path.join(under.data.path, 'logs', 'keyframe.log'), 'utf8');
  const storedTokens = async () => JSON.parse(await readFile(tokensFile(), 'utf8')) as PlatformTokens;
  const connect = async () => {
    const frontend = await under.start(platform.environment({ KEYFRAME_UPLOAD_CHUNK_BYTES: String(64 * 1024) }));
    await frontend.handshake();
    return frontend;
  };
  const eventually = async (condition: () => Promise<boolean> | boolean, what: string) => {
    const deadline = Date.now() + 10000;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`${what} within 10 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  /** `Login` has no answer: the tokens file shows it was handled. */
  const loggedIn = async (frontend: ProtocolClient, tokens: PlatformTokens) => {
    frontend.send('Login', tokens);
    await eventually(
      () =>
        storedTokens().then(
          (stored) => stored.accessToken === tokens.accessToken,
          () => false,
        ),
      'Login did not store the tokens',
    );
  };
  const expectNoTokenIn = (text: string, ...tokens: PlatformTokens[]) => {
    for (const { accessToken, refreshToken } of tokens) {
      expect(text).to.not.include(accessToken);
      expect(text).to.not.include(refreshToken);
      // Neither the signature nor the payload of the JWT leaks on its own.
      for (const part of accessToken.split('.').slice(1)) expect(text).to.not.include(part);
    }
  };

  it('answers LoginWithDiscord at once with a failure the user sees, and CancelDiscordLogin with cancelled', async () => {
    const frontend = await connect();
    const asked = Date.now();
    frontend.send('LoginWithDiscord');
    const result = await frontend.next('DiscordLoginResult', () => true, 1000);
    const modal = await frontend.next('ShowModal', () => true, 1000);
    expect(Date.now() - asked).to.be.below(1000);
    expect(result.status).to.equal('error');
    expect(result.message)
      .to.match(/Discord/)
      .and.match(/sign in with your Keyframe account/i);
    expect(modal).to.deep.include({ title: 'Discord sign-in is not available', type: 'error' });
    frontend.send('CancelDiscordLogin');
    expect(await frontend.next('DiscordLoginResult', () => true, 1000)).to.deep.equal({ status: 'cancelled' });
    expect(frontend.all('CommandRejected')).to.deep.equal([]);
    expect(frontend.schemaViolations).to.deep.equal([]);
  });

  it('keeps the tokens in a file only the user can read, across restarts, and never logs them', async () => {
    const frontend = await connect();
    const tokens = platform.issueTokens();
    await loggedIn(frontend, tokens);
    expect((await stat(tokensFile())).mode & 0o777).to.equal(0o600);
    expect(await storedTokens()).to.deep.equal(tokens);
    expectNoTokenIn(JSON.stringify(frontend.events), tokens);

    await under.process.stop();
    const again = await connect();
    const item = await importUploadableVideo(again, under.data.path, under.content.path);
    again.send('UploadContent', { FilePath: item.filePath, Title: 'After a restart' });
    expect(
      await again.next('UploadProgress', (progress) => progress.status === 'done' || progress.status === 'error', UPLOAD_DEADLINE_MS),
    ).to.deep.include({ status: 'done' });
    expect(platform.renewals).to.deep.equal([]);

    const log = await logText();
    // The sign-in is logged; the Login command's content never is (not even redacted).
    expect(log).to.include('"message":"signed in"');
    expectNoTokenIn(log, tokens);
  });

  it('renews an expired access token at the token endpoint before uploading', async () => {
    const frontend = await connect();
    const expired = platform.issueTokens(-60);
    await loggedIn(frontend, expired);
    const item = await importUploadableVideo(frontend, under.data.path, under.content.path);
    frontend.send('UploadContent', { FilePath: item.filePath, Title: 'Renewed' });
    expect(
      await frontend.next('UploadProgress', (progress) => progress.status === 'done' || progress.status === 'error', UPLOAD_DEADLINE_MS),
    ).to.deep.include({ status: 'done' });

    expect(platform.renewals).to.deep.equal([{ grantType: 'refresh_token', clientId: 'keyframe-desktop', granted: true }]);
    // Renewed before the first request, not after a refusal.
    expect(platform.unauthorized).to.equal(0);
    const renewed = await storedTokens();
    expect(renewed.accessToken).to.not.equal(expired.accessToken);
    expect(renewed.refreshToken).to.not.equal(expired.refreshToken);
    expect((await stat(tokensFile())).mode & 0o777).to.equal(0o600);
    expectNoTokenIn(await logText(), expired, renewed);
    expectNoTokenIn(JSON.stringify(frontend.events), expired, renewed);
  });

  it('signs out with a dialog when the token endpoint refuses the renewal', async () => {
    const frontend = await connect();
    const expired = platform.issueTokens(-60);
    platform.revokeRefreshTokens();
    await loggedIn(frontend, expired);
    const item = await importUploadableVideo(frontend, under.data.path, under.content.path);
    frontend.send('UploadContent', { FilePath: item.filePath, Title: 'Too late' });

    const modal = await frontend.next('ShowModal', () => true, 20000);
    expect(modal).to.deep.include({ title: 'Signed out', type: 'warning' });
    expect(await frontend.until('UploadProgress', (progress) => progress.status === 'error', 20000)).to.deep.equal({
      fileName: path.basename(item.filePath),
      title: 'Too late',
      progress: -1,
      status: 'error',
      message: 'Upload stopped: your sign-in expired',
    });
    expect(frontend.all('ShowModal')).to.have.length(1);
    expect(platform.renewals).to.deep.equal([{ grantType: 'refresh_token', clientId: 'keyframe-desktop', granted: false }]);
    expect(existsSync(tokensFile())).to.equal(false);
    expect(platform.tusRequests).to.deep.equal([]);

    frontend.send('UploadContent', { FilePath: item.filePath, Title: 'Again' });
    expect(await frontend.next('CommandRejected', (rejection) => rejection.method === 'UploadContent')).to.deep.include({
      code: 'NotAllowed',
    });
    expectNoTokenIn(await logText(), expired);
  });

  it('Logout forgets the tokens and cancels the uploads, telling the platform', async () => {
    const frontend = await connect();
    await loggedIn(frontend, platform.issueTokens());
    const item = await importUploadableVideo(frontend, under.data.path, under.content.path);
    platform.holdPatchesAfter(2);
    frontend.send('UploadContent', { FilePath: item.filePath, Title: 'Half way' });
    await platform.heldPatch();

    frontend.send('Logout');
    expect(await frontend.next('UploadProgress', (progress) => progress.status === 'error', 20000)).to.deep.include({
      progress: -1,
      message: 'Upload cancelled: you signed out',
    });
    const id = platform.uploadIds[0]!;
    expect(platform.tusRequests.filter((request) => request.method === 'DELETE')).to.deep.equal([
      { method: 'DELETE', uploadId: id, status: 204 },
    ]);
    expect(await platform.storedUpload(id)).to.equal(undefined);
    await eventually(() => !existsSync(tokensFile()), 'Logout did not remove the tokens file');

    await under.process.stop();
    const again = await connect();
    again.send('UploadContent', { FilePath: item.filePath, Title: 'Signed out' });
    expect(await again.next('CommandRejected', (rejection) => rejection.method === 'UploadContent')).to.deep.include({
      code: 'NotAllowed',
    });
  });
});
