import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fetchUpdateFeed, releasesForChannel, UpdateFeedError, type FeedRelease } from './update-feed.js';

const release = (version: string, channel: FeedRelease['channel'] = 'stable'): FeedRelease => ({
  version,
  channel,
  url: `packages/${version}.tar.gz`,
  size: 10,
  sha256: 'ab'.repeat(32),
  releaseDate: '2026-11-01T00:00:00Z',
  notes: '',
});

describe('update feed', () => {
  let server: Server;
  let body: string;
  const feedUrl = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/channel/feed.json`;

  before(async () => {
    server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(body));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reads releases, resolves package URLs against the feed and skips invalid versions', async () => {
    body = JSON.stringify({
      releases: [release('1.2.0'), release('latest'), { ...release('1.3.0'), url: 'https://downloads.example/k.tar.gz' }],
    });
    const releases = await fetchUpdateFeed(feedUrl(), 'Keyframe/test');
    expect(releases.map((entry) => [entry.version, entry.url])).to.deep.equal([
      ['1.2.0', feedUrl().replace('feed.json', 'packages/1.2.0.tar.gz')],
      ['1.3.0', 'https://downloads.example/k.tar.gz'],
    ]);
  });

  it('refuses a feed that does not match its schema, saying where', async () => {
    body = JSON.stringify({ releases: [{ ...release('1.2.0'), sha256: 'not hex' }] });
    let refusal: unknown;
    await fetchUpdateFeed(feedUrl(), 'Keyframe/test').catch((error: unknown) => {
      refusal = error;
    });
    expect(refusal).to.be.instanceOf(UpdateFeedError);
    expect(String(refusal)).to.include('/releases/0/sha256');
  });

  it('offers stable releases to stable users and both channels to beta users, newest first', () => {
    const releases = [release('1.0.0'), release('1.2.0-beta.1', 'beta'), release('1.1.0')];
    expect(releasesForChannel(releases, false).map((entry) => entry.version)).to.deep.equal(['1.1.0', '1.0.0']);
    expect(releasesForChannel(releases, true).map((entry) => entry.version)).to.deep.equal(['1.2.0-beta.1', '1.1.0', '1.0.0']);
  });
});
