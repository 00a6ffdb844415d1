import 'reflect-metadata';
import {
  Bookmarks, Feeds, GamePaths, Health, Logger,
  type BookmarkRequest, type Feed, type FeedsService, type TailInput, type TailOptions,
} from '@keyframe/core';
import { expect } from 'chai';
import path from 'node:path';
import { container, injectable } from 'tsyringe';
import { FantasySurvivalIntegration } from './fantasy-survival-integration.js';

const LOCAL_APP_DATA = '/users/me/local';
const LOG = path.join(LOCAL_APP_DATA, 'RSDragonwilds', 'Saved', 'Logs', 'RSDragonwilds.log');
const GAME = { name: 'RuneScape: Dragonwilds', executablePath: 'C:\\Games\\RSDragonwilds-Win64-Shipping.exe' };
const death = 'LogDominionPlayerController: Changing input mode from [DIM_Gameplay] to [DIM_Dead]';
const respawn = 'LogDominionPlayerController: Changing input mode from [DIM_Dead] to [DIM_Gameplay]';

/** The same integration with a missing-log limit short enough for a test. */
@injectable()
class QuickFantasySurvivalIntegration extends FantasySurvivalIntegration {
  protected override readonly missingLogTimeoutMs = 30;
}

/** The integration in a child container with recording fakes of the services it uses. */
function harness() {
  const tails: Array<{ id: string; options: TailOptions; deliver: (input: TailInput) => Promise<void> }> = [];
  const bookmarks: BookmarkRequest[] = [];
  const health: Array<string | undefined> = [];
  const feeds: Pick<FeedsService, 'tail'> = {
    tail(id, options): Feed<TailInput> {
      let handler: (input: TailInput) => void | Promise<void> = () => {};
      tails.push({ id, options, deliver: async (input) => { await handler(input); } });
      return { ready: Promise.resolve(), onInput: (next) => { handler = next; }, close: async () => {} };
    },
  };
  const child = container.createChildContainer();
  child.register(Feeds, { useValue: feeds });
  child.register(Bookmarks, { useValue: { add: async (request: BookmarkRequest) => { bookmarks.push(request); return true; } } });
  child.register(Logger, { useValue: { debug() {}, info() {}, warn() {}, error() {} } });
  child.register(Health, { useValue: { degraded: (reason: string | undefined) => { health.push(reason); }, notify() {} } });
  child.register(GamePaths, { useValue: { steamLibraries: async () => [], roamingAppData: () => '/roaming', localAppData: () => LOCAL_APP_DATA, home: () => '/home' } });
  const integration = child.resolve(QuickFantasySurvivalIntegration);
  /** Delivers lines (or resets) to the last tail opened, one at a time, as the host does. */
  const log = async (...entries: Array<string | TailInput>) => {
    for (const entry of entries) await tails.at(-1)!.deliver(typeof entry === 'string' ? { line: entry, file: LOG } : entry);
  };
  return { integration, tails, bookmarks, health, log };
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('FantasySurvivalIntegration', () => {
  let under: ReturnType<typeof harness>;
  beforeEach(() => { under = harness(); });
  afterEach(() => under.integration.deactivate());

  it('follows RSDragonwilds.log in the local app-data folder', async () => {
    await under.integration.activate(GAME);
    expect(under.tails.map(({ id, options }) => [id, options.paths])).to.deep.equal([['log', [LOG]]]);
  });

  it('bookmarks a Death for each death, not for the respawn or a repeated line', async () => {
    await under.integration.activate(GAME);
    await under.log({ reset: 'opened', file: LOG }, death, death, respawn, 'LogNet: Join succeeded: Someone', death);
    expect(under.bookmarks).to.deep.equal([{ type: 'Death' }, { type: 'Death' }]);
  });

  it('starts a new log (the game restarted) without remembering that the player was dead', async () => {
    await under.integration.activate(GAME);
    await under.log(death, { reset: 'rotated', file: LOG }, death, { reset: 'truncated', file: LOG }, death);
    expect(under.bookmarks).to.have.length(3);
  });

  it('says in health when the log does not appear, and clears it once the file is followed', async () => {
    await under.integration.activate(GAME);
    await delay(60);
    expect(under.health).to.have.length(1);
    expect(under.health[0]).to.equal(`The RuneScape: Dragonwilds client log was not found at ${LOG}: deaths are bookmarked once the game writes it there.`);
    await under.log({ reset: 'opened', file: LOG });
    expect(under.health.at(-1)).to.equal(undefined);
  });

  it('stays quiet in health when the log is found in time', async () => {
    await under.integration.activate(GAME);
    await under.log({ reset: 'opened', file: LOG });
    await delay(60);
    expect(under.health).to.deep.equal([undefined]);
  });

  it('bookmarks nothing after deactivate, and forgets the dead state for the next activation', async () => {
    await under.integration.activate(GAME);
    await under.log(death);
    await under.integration.deactivate();
    await under.log(respawn, death);
    expect(under.bookmarks).to.have.length(1);
    await under.integration.activate(GAME);
    await under.log(death);
    expect(under.bookmarks).to.have.length(2);
  });
});
