import 'reflect-metadata';
import type { TailInput, TailOptions } from '@keyframe/core';
import { IntegrationTestBed } from '@keyframe/integration-testkit';
import { expect } from 'chai';
import { injectable } from 'tsyringe';
import { SurvivalGameIntegration } from './survival-game-integration.js';

const EXE = 'C:\\Games\\Rust\\RustClient.exe';
const LOG = 'C:\\Games\\Rust\\output_log.txt';

/** The same integration with a missing-log limit short enough for a test. */
@injectable()
class QuickSurvivalGameIntegration extends SurvivalGameIntegration {
  protected override readonly missingLogTimeoutMs = 30;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SurvivalGameIntegration', () => {
  let bed: IntegrationTestBed;
  let integration: SurvivalGameIntegration;
  /** Delivers lines (or file changes) to the newest log feed, one at a time, as the host does. */
  const log = async (...entries: Array<string | TailInput>) => {
    const feed = bed.feeds.latest('tail', 'log');
    for (const entry of entries) await feed.deliver(typeof entry === 'string' ? { line: entry, file: LOG } : entry);
  };
  const tailedPaths = () => bed.feeds.opened.map(({ id, options }) => [id, (options as TailOptions).paths]);

  beforeEach(() => {
    bed = new IntegrationTestBed({ key: 'survivalGame' });
    bed.gamePaths.steamLibraryFolders = ['/steam'];
    integration = bed.resolve(QuickSurvivalGameIntegration);
  });
  afterEach(() => integration.deactivate());

  it("follows output_log.txt beside the running executable, then the Steam libraries' Rust folder", async () => {
    await integration.activate({ name: 'Rust', executablePath: EXE });
    expect(tailedPaths()).to.deep.equal([['log', [LOG, '/steam/steamapps/common/Rust/output_log.txt']]]);
  });

  it('bookmarks one Death per death line and nothing for other lines or file changes', async () => {
    await integration.activate({ name: 'Rust', executablePath: EXE });
    await log(
      { reset: 'opened', file: LOG },
      '2026-03-21T05:28:13.845Z|0x2a7c|Connecting: 64.40.8.152:28014 (Raknet)',
      '2026-03-21T05:34:35.817Z|0x2a7c|You died: killed by Suicide',
      { reset: 'truncated', file: LOG },
      { reset: 'rotated', file: LOG },
      '2026-03-21T05:38:55.622Z|0x2a7c|You died: killed by Spooder-Man (76561199844640850)',
      'garbage \ufffd',
    );
    expect(bed.bookmarks.added).to.deep.equal([{ type: 'Death' }, { type: 'Death' }]);
  });

  it('says in health when the log does not appear, and clears it once the file is followed', async () => {
    await integration.activate({ name: 'Rust', executablePath: EXE });
    await delay(60);
    expect(bed.health.degradations).to.have.length(1);
    expect(bed.health.degradations[0]).to.include(LOG).and.to.include('was not found');
    await log({ reset: 'opened', file: LOG });
    expect(bed.health.degradations.at(-1)).to.equal(undefined);
  });

  it('stays quiet in health when the log is found in time', async () => {
    await integration.activate({ name: 'Rust', executablePath: EXE });
    await log({ reset: 'opened', file: LOG });
    await delay(60);
    expect(bed.health.degradations).to.deep.equal([undefined]);
  });

  it('says at once that it cannot work when neither the executable nor a Steam library is known', async () => {
    bed.gamePaths.steamLibraryFolders = [];
    await integration.activate({ name: 'Rust' });
    expect(bed.feeds.opened).to.deep.equal([]);
    expect(bed.health.degradations).to.have.length(1);
    expect(bed.health.degradations[0]).to.match(/Cannot tell where Rust writes output_log\.txt/);
  });

  it("still follows the executable's folder when the Steam libraries cannot be listed", async () => {
    bed.gamePaths.steamLibraries = () => Promise.reject(new Error('libraryfolders.vdf is corrupt'));
    await integration.activate({ name: 'Rust', executablePath: EXE });
    expect(tailedPaths()).to.deep.equal([['log', [LOG]]]);
  });

  it('bookmarks nothing after deactivate, and starts afresh on the next activation', async () => {
    await integration.activate({ name: 'Rust', executablePath: EXE });
    const first = bed.feeds.latest('tail', 'log');
    await integration.deactivate();
    await first.deliver({ line: 'You died: killed by Bear', file: LOG });
    expect(bed.bookmarks.added).to.deep.equal([]);
    await integration.activate({ name: 'Rust', executablePath: EXE });
    await log('You died: killed by Bear');
    expect(bed.bookmarks.added).to.deep.equal([{ type: 'Death' }]);
  });
});
