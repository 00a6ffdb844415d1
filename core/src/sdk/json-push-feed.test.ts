import { expect } from 'chai';
import type { Feed, Feeds, HttpPushInput, HttpPushOptions } from './feed-types.js';
import type { PluginLogger } from './game-integration.js';
import { openJsonPushFeed, readJsonPush, tokenRefusedMessage } from './json-push-feed.js';

/** Feeds that open one httpPush feed whose `ready` settles as told; the other kinds are not used here. */
function pushFeeds(ready: Promise<void>): {
  feeds: Feeds;
  opened: { id: string; options: HttpPushOptions }[];
  handlers: ((input: HttpPushInput) => unknown)[];
} {
  const opened: { id: string; options: HttpPushOptions }[] = [];
  const handlers: ((input: HttpPushInput) => unknown)[] = [];
  const httpPush = (id: string, options: HttpPushOptions): Feed<HttpPushInput> => {
    opened.push({ id, options });
    return {
      ready,
      onInput: (handler) => {
        handlers.push(handler);
      },
      close: async () => undefined,
    };
  };
  return { feeds: { httpPush } as unknown as Feeds, opened, handlers };
}

class RecordedLogger implements PluginLogger {
  readonly lines: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
  debug(message: string, fields?: Record<string, unknown>): void {
    this.lines.push({ level: 'debug', message, fields });
  }
  info(message: string, fields?: Record<string, unknown>): void {
    this.lines.push({ level: 'info', message, fields });
  }
  warn(message: string, fields?: Record<string, unknown>): void {
    this.lines.push({ level: 'warn', message, fields });
  }
  error(message: string, fields?: Record<string, unknown>): void {
    this.lines.push({ level: 'error', message, fields });
  }
}

describe('openJsonPushFeed', () => {
  const options = { id: 'gsi', port: 1340, game: 'Some Game', token: 'Token1234567890abcdef', onTokenRefused: () => undefined };

  it('opens the feed on the port with the token, hands it the handler and resolves once it listens', async () => {
    const { feeds, opened, handlers } = pushFeeds(Promise.resolve());
    const handler = () => undefined;
    await openJsonPushFeed(feeds, options, handler);
    expect(opened.map(({ id, options: { port, token } }) => ({ id, port, token }))).to.deep.equal([
      { id: 'gsi', port: 1340, token: options.token },
    ]);
    expect(handlers).to.deep.equal([handler]);
  });

  it("words refusals for a missing or wrong token for health, and leaves those of web pages to the feed's log", async () => {
    const { feeds, opened } = pushFeeds(Promise.resolve());
    const messages: string[] = [];
    await openJsonPushFeed(feeds, { ...options, onTokenRefused: (message) => messages.push(message) }, () => undefined);
    const { onRefused } = opened[0]!.options;
    onRefused!({ reason: 'browser', count: 1 });
    onRefused!({ reason: 'token', count: 1 });
    onRefused!({ reason: 'token', count: 2 });
    expect(messages).to.deep.equal([tokenRefusedMessage('Some Game', 1), tokenRefusedMessage('Some Game', 2)]);
    expect(messages[1]).to.match(/^Refused 2 pushes from Some Game without Keyframe's token: restart Some Game/);
  });

  it("turns a port it cannot listen on into what to do, keeping the feed's error as the cause", async () => {
    const cause = new Error('httpPush feed "gsi" cannot listen on 127.0.0.1:1340: port 1340 is in use by another program');
    const { feeds } = pushFeeds(Promise.reject(cause));
    const failure = await openJsonPushFeed(feeds, options, () => undefined).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).to.be.instanceOf(Error);
    expect((failure as Error).message).to.equal(
      `Cannot listen for Some Game on 127.0.0.1:1340: ${cause.message}. Close the program that uses port 1340 and start the game again.`,
    );
    expect((failure as Error).cause).to.equal(cause);
  });
});

describe('readJsonPush', () => {
  const push = (body: string, method = 'POST'): HttpPushInput => ({ method, path: '/', body, userAgent: 'Game/1.0' });

  it("reads the JSON of a POST, whatever the method's case", () => {
    const logger = new RecordedLogger();
    expect(readJsonPush(push('{"player":{"kills":2}}'), logger)).to.deep.equal({ payload: { player: { kills: 2 } } });
    expect(readJsonPush(push('null', 'post'), logger)).to.deep.equal({ payload: null });
    expect(logger.lines).to.deep.equal([]);
  });

  it('ignores other methods without a word', () => {
    const logger = new RecordedLogger();
    expect(readJsonPush(push('{}', 'GET'), logger)).to.equal(undefined);
    expect(logger.lines).to.deep.equal([]);
  });

  it('ignores a body that is not JSON with a debug line that never holds the body', () => {
    const logger = new RecordedLogger();
    expect(readJsonPush(push('{"auth":{"token":"Secret"'), logger)).to.equal(undefined);
    expect(logger.lines).to.deep.equal([
      { level: 'debug', message: 'Ignored a push that is not JSON', fields: { bytes: 25, userAgent: 'Game/1.0' } },
    ]);
    expect(JSON.stringify(logger.lines)).to.not.include('Secret');
  });
});
