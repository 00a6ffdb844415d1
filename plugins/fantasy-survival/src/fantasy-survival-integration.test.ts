import 'reflect-metadata';
import type { TailInput, TailOptions } from '@keyframe/core';
import { IntegrationTestBed } from '@keyframe/integration-testkit';
import { expect } from 'chai';
import path from 'node:path';
import { injectable } from 'tsyringe';
import { FantasySurvivalIntegration } from './fantasy-survival-integration.js';

const ROOT = '/users/me';
const LOG = path.join(ROOT, 'local', 'RSDragonwilds', 'Saved', 'Logs', 'RSDragonwilds.log');
const GAME = { name: 'RuneScape: Dragonwilds', executablePath: 'C:\\Games\\RSDragonwilds-Win64-Shipping.exe' };
const death = 'LogDominionPlayerController: Changing input mode from [DIM_Gameplay] to [DIM_Dead]';
const respawn = 'LogDominionPlayerController: Changing input mode from [DIM_Dead] to [DIM_Gameplay]';

/** The same integration with a missing-log limit short enough for a test. */
@injectable()
class QuickFantasySurvivalIntegration extends FantasySurvivalIntegration {
  protected override readonly missingLogTimeoutMs = 30;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('FantasySurvivalIntegration', () => {
  let bed: IntegrationTestBed;
  let integration: FantasySurvivalIntegration;
  /** Delivers lines (or file changes) to the newest log feed, one at a time, as the host does. */
  const log = async (...entries: Array<string | TailInput>) => {
    const feed = bed.feeds.latest('tail', 'log');
    for (const entry of entries) await feed.deliver(typeof entry === 'string' ? { line: entry, file: LOG } : entry);
  };

  beforeEach(() => {
    bed = new IntegrationTestBed({ key: 'fantasySurvival', root: ROOT });
    integration = bed.resolve(QuickFantasySurvivalIntegration);
  });
  afterEach(() => integration.deactivate());

  it('follows RSDragonwilds.log in the local app-data folder', async () => {
    await integration.activate(GAME);
    expect(bed.feeds.opened.map(({ id, options }) => [id, (options as TailOptions).paths])).to.deep.equal([['log', [LOG]]]);
  });

  it('bookmarks a Death for each death, not for the respawn or a repeated line', async () => {
    await integration.activate(GAME);
    await log({ reset: 'opened', file: LOG }, death, death, respawn, 'LogNet: Join succeeded: Someone', death);
    expect(bed.bookmarks.added).to.deep.equal([{ type: 'Death' }, { type: 'Death' }]);
  });

  it('starts a new log (the game restarted) without remembering that the player was dead', async () => {
    await integration.activate(GAME);
    await log(death, { reset: 'rotated', file: LOG }, death, { reset: 'truncated', file: LOG }, death);
    expect(bed.bookmarks.added).to.have.length(3);
  });

  it('says in health when the log does not appear, and clears it once the file is followed', async () => {
    await integration.activate(GAME);
    await delay(60);
    expect(bed.health.degradations).to.have.length(1);
    expect(bed.health.degradations[0]).to.equal(
      `The RuneScape: Dragonwilds client log was not found at ${LOG}: deaths are bookmarked once the game writes it there.`,
    );
    await log({ reset: 'opened', file: LOG });
    expect(bed.health.degradations.at(-1)).to.equal(undefined);
  });

  it('stays quiet in health when the log is found in time', async () => {
    await integration.activate(GAME);
    await log({ reset: 'opened', file: LOG });
    await delay(60);
    expect(bed.health.degradations).to.deep.equal([undefined]);
  });

  it('bookmarks nothing after deactivate, and forgets the dead state for the next activation', async () => {
    await integration.activate(GAME);
    await log(death);
    await integration.deactivate();
    await log(respawn, death);
    expect(bed.bookmarks.added).to.have.length(1);
    await integration.activate(GAME);
    await log(death);
    expect(bed.bookmarks.added).to.have.length(2);
  });
});
