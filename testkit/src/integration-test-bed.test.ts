// The test bed drives the socket feeds (tcp, webSocket, udp) as it drives the others: a test delivers
// their inputs, and nothing reaches the integration once its deactivate() has begun.
import 'reflect-metadata';
import { expect } from 'chai';
import { Bookmarks, Feeds, type BookmarksService, type FeedsService, type GameIntegration } from '@keyframe/core';
import { inject, injectable } from 'tsyringe';
import { IntegrationTestBed } from './integration-test-bed.js';

/** Bookmarks a kill from the console, a death from the event socket and a lap from telemetry. */
@injectable()
class SocketFeedsIntegration implements GameIntegration {
  constructor(
    @inject(Feeds) private readonly feeds: FeedsService,
    @inject(Bookmarks) private readonly bookmarks: BookmarksService,
  ) {}

  async activate(): Promise<void> {
    this.feeds.tcp('console', { port: 27015 }).onInput(async (input) => {
      if ('line' in input && input.line.includes('killed')) await this.bookmarks.add({ type: 'Kill', subtype: input.line });
    });
    this.feeds.webSocket('events', { url: 'ws://127.0.0.1:8080/events' }).onInput(async (input) => {
      if ('message' in input && JSON.parse(input.message).event === 'death') await this.bookmarks.add({ type: 'Death' });
    });
    this.feeds.udp('telemetry', { port: 20777 }).onInput(async (input) => {
      if (input.message === 'lap') await this.bookmarks.add({ type: 'Kill', subtype: 'lap' });
    });
  }

  async deactivate(): Promise<void> {}
}

describe('IntegrationTestBed with the socket feeds', () => {
  it('delivers what a test gives each feed, and nothing after deactivate', async () => {
    const bed = new IntegrationTestBed({ key: 'socketGame' });
    const integration = bed.resolve(SocketFeedsIntegration);
    await integration.activate();
    expect(bed.feeds.opened.map(({ kind, id }) => `${kind}:${id}`)).to.deep.equal(['tcp:console', 'webSocket:events', 'udp:telemetry']);

    await bed.feeds.latest('tcp', 'console').deliver({ connection: 'opened' });
    await bed.feeds.latest('tcp', 'console').deliver({ line: 'Player killed Bot' });
    await bed.feeds.latest('webSocket', 'events').deliver({ message: '{"event":"death"}' });
    await bed.feeds.latest('udp', 'telemetry').deliver({ message: 'lap', from: '127.0.0.1:50000' });
    expect(bed.bookmarks.added.map(({ type, subtype }) => [type, subtype])).to.deep.equal([
      ['Kill', 'Player killed Bot'],
      ['Death', undefined],
      ['Kill', 'lap'],
    ]);

    await integration.deactivate();
    await bed.feeds.latest('tcp', 'console').deliver({ line: 'Player killed Bot again' });
    await bed.feeds.latest('udp', 'telemetry').deliver({ message: 'lap' });
    expect(bed.bookmarks.added).to.have.length(3);
    expect(bed.logger.problems).to.deep.equal([]);
  });
});
