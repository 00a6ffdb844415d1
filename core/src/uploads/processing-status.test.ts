import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AccountService } from '../accounts/account-service.js';
import { Logger } from '../support/logger.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { lastPathSegment, processingStatusUrl, waitUntilProcessed } from './processing-status.js';

describe('processing status', () => {
  it('asks at <processing URL>/<last segment of the upload URL>', () => {
    expect(processingStatusUrl('https://upload.example/processing/', 'https://upload.example/files/abc123')).to.equal(
      'https://upload.example/processing/abc123',
    );
    expect(processingStatusUrl('https://upload.example/processing', 'https://upload.example/files/abc123/')).to.equal(
      'https://upload.example/processing/abc123',
    );
    expect(lastPathSegment('https://platform.example/watch/v9?x=1')).to.equal('v9');
  });

  describe('against a status endpoint on loopback', () => {
    let app: TestApp;
    let server: http.Server;
    let answers: { status: number; body: object }[];
    const authorizations: (string | undefined)[] = [];
    let account: AccountService;

    beforeEach(async () => {
      authorizations.length = 0;
      server = http.createServer((request, response) => {
        authorizations.push(request.headers.authorization);
        const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
        response.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      app = await createTestApp();
      account = app.resolve(AccountService);
      await account.login({ accessToken: 'opaque-token', refreshToken: 'refresh' });
    });
    afterEach(async () => {
      await new Promise((resolve) => server.close(resolve));
      await app.dispose();
    });

    const statusUrl = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/processing/abc`;
    const wait = () => waitUntilProcessed(statusUrl(), account, new Logger([]), new AbortController().signal);

    it('follows processing, a passing server error included, until ready, with the bearer token', async () => {
      answers = [
        { status: 200, body: { status: 'processing' } },
        { status: 503, body: {} },
        { status: 200, body: { status: 'ready', url: 'https://platform.example/watch/abc' } },
      ];
      expect(await wait()).to.equal('https://platform.example/watch/abc');
      expect(authorizations).to.deep.equal(['Bearer opaque-token', 'Bearer opaque-token', 'Bearer opaque-token']);
    });

    it("fails with the platform's reason", async () => {
      answers = [{ status: 200, body: { status: 'failed', message: 'unsupported codec' } }];
      expect(((await wait().catch((error: Error) => error)) as Error).message).to.equal(
        'The platform could not process the video: unsupported codec',
      );
      answers = [{ status: 200, body: { status: 'ready' } }];
      expect(((await wait().catch((error: Error) => error)) as Error).message).to.include('without a public URL');
      answers = [{ status: 404, body: { message: 'no such upload' } }];
      expect(((await wait().catch((error: Error) => error)) as Error).message).to.include('HTTP 404: no such upload');
    });

    it('stops when told to', async () => {
      answers = [{ status: 200, body: { status: 'processing' } }];
      const controller = new AbortController();
      const waiting = waitUntilProcessed(statusUrl(), account, new Logger([]), controller.signal);
      setTimeout(() => controller.abort(), 100);
      expect(
        await waiting.then(
          () => 'ready',
          (error: Error) => error.name,
        ),
      ).to.equal('AbortError');
    });
  });
});
