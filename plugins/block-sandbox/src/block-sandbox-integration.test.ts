import 'reflect-metadata';
import type { TailInput, TailOptions } from '@keyframe/core';
import { IntegrationTestBed } from '@keyframe/integration-testkit';
import { expect } from 'chai';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { injectable } from 'tsyringe';
import { BEDROCK_GAME_NAME, BEDROCK_UNSUPPORTED_MESSAGE, BlockSandboxIntegration } from './block-sandbox-integration.js';

/** The same integration with a missing-log limit short enough for a test. */
@injectable()
class QuickBlockSandboxIntegration extends BlockSandboxIntegration {
  protected override readonly missingLogTimeoutMs = 30;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const chat = (text: string) => `[16:37:42] [Render thread/INFO]: [CHAT] ${text}`;

describe('BlockSandboxIntegration', () => {
  let temp: string;
  let log: string;
  let bed: IntegrationTestBed;
  let integration: BlockSandboxIntegration;
  /** Delivers to the newest log feed, as the host does. */
  const deliver = (input: TailInput) => bed.feeds.latest('tail', 'log').deliver(input);

  beforeEach(async () => {
    temp = await mkdtemp(path.join(os.tmpdir(), 'block-sandbox-integration-'));
    log = path.join(temp, 'home', '.minecraft', 'logs', 'latest.log');
    await mkdir(path.dirname(log), { recursive: true });
    bed = new IntegrationTestBed({ key: 'blockSandbox', root: temp });
    integration = bed.resolve(BlockSandboxIntegration);
  });
  afterEach(async () => {
    await integration.deactivate();
    await rm(temp, { recursive: true, force: true });
  });

  it('says in health that the Bedrock Edition is not supported, and opens nothing', async () => {
    await integration.activate({
      name: BEDROCK_GAME_NAME,
      executablePath: 'C:\\XboxGames\\Minecraft for Windows\\Content\\Minecraft.Windows.exe',
    });
    expect(bed.health.degradations).to.deep.equal([BEDROCK_UNSUPPORTED_MESSAGE]);
    expect(bed.feeds.opened).to.deep.equal([]);
  });

  it('tails the candidate logs as bytes (latin1), the vanilla launcher folder among them', async () => {
    await integration.activate({ name: 'Minecraft' });
    expect(bed.feeds.opened).to.have.length(1);
    expect(bed.feeds.opened[0]!.id).to.equal('log');
    const options = bed.feeds.opened[0]!.options as TailOptions;
    expect(options.encoding).to.equal('latin1');
    expect(options.paths).to.include(log);
  });

  it("follows the log in the game folder set in Keyframe's settings, first, besides the usual places", async () => {
    const instance = path.join(temp, 'CurseForge', 'Instances', 'All the Mods');
    bed = new IntegrationTestBed({ key: 'blockSandbox', root: temp, settings: { gameFolder: instance } });
    integration = bed.resolve(BlockSandboxIntegration);
    await integration.activate({ name: 'Minecraft' });
    const { paths } = bed.feeds.opened[0]!.options as TailOptions;
    expect(paths[0]).to.equal(path.join(instance, 'logs', 'latest.log'));
    expect(paths).to.include(log);
  });

  it('takes a game folder changed between two activations', async () => {
    await integration.activate({ name: 'Minecraft' });
    await integration.deactivate();
    const instance = path.join(temp, 'MultiMC', 'instances', 'Vanilla+', '.minecraft');
    await bed.settings.change({ gameFolder: instance });
    await integration.activate({ name: 'Minecraft' });
    expect((bed.feeds.latest('tail', 'log').options as TailOptions).paths[0]).to.equal(path.join(instance, 'logs', 'latest.log'));
  });

  it('finds the player at the start of the opened log and bookmarks only their deaths', async () => {
    await writeFile(log, '[16:25:05] [Render thread/INFO]: Setting user: MrChozo\n[16:26:43] [Render thread/INFO]: [CHAT] <MrChozo> hi\n');
    await integration.activate({ name: 'Minecraft' });
    await deliver({ reset: 'opened', file: log });
    expect(bed.health.degradations).to.deep.equal([undefined]);
    for (const text of ['MrChozo was shot by Skeleton', 'Alex was slain by MrChozo', '<MrChozo> I drowned', 'MrChozo drowned']) {
      await deliver({ line: chat(text), file: log });
    }
    expect(bed.bookmarks.added).to.deep.equal([{ type: 'Death' }, { type: 'Death' }]);
  });

  it('says why when the log does not name the player, and recovers when it does', async () => {
    await writeFile(log, '[16:25:05] [Render thread/INFO]: Starting\n');
    await integration.activate({ name: 'Minecraft' });
    await deliver({ reset: 'opened', file: log });
    expect(bed.health.degradations.at(-1)).to.match(/does not name the player \(no "Setting user:" line\)/);
    await deliver({ line: chat('MrChozo drowned'), file: log });
    expect(bed.bookmarks.added).to.deep.equal([]);
    await deliver({ line: '[16:25:05] [Render thread/INFO]: Setting user: MrChozo', file: log });
    expect(bed.health.degradations.at(-1)).to.equal(undefined);
    await deliver({ line: chat('MrChozo drowned'), file: log });
    expect(bed.bookmarks.added).to.have.length(1);
  });

  it('says which file it could not read', async () => {
    await integration.activate({ name: 'Minecraft' });
    await deliver({ reset: 'opened', file: path.join(temp, 'gone.log') });
    expect(bed.health.degradations.at(-1)).to.match(/gone\.log does not name the player \(cannot read it: ENOENT/);
  });

  it('warns when no log appears, naming where it looked and that Bedrock is not supported', async () => {
    integration = bed.resolve(QuickBlockSandboxIntegration);
    await integration.activate({ name: 'Minecraft' });
    await delay(80);
    expect(bed.health.degradations).to.have.length(1);
    expect(bed.health.degradations[0]).to.include(log).and.to.include('Bedrock Edition is not supported');
  });

  it('does not warn when the log opens in time', async () => {
    await writeFile(log, '[16:25:05] [Render thread/INFO]: Setting user: MrChozo\n');
    integration = bed.resolve(QuickBlockSandboxIntegration);
    await integration.activate({ name: 'Minecraft' });
    await deliver({ reset: 'opened', file: log });
    await delay(80);
    expect(bed.health.degradations).to.deep.equal([undefined]);
  });

  it('ignores what arrives after deactivate, and starts over with no player on the next activation', async () => {
    await writeFile(log, '[16:25:05] [Render thread/INFO]: Setting user: MrChozo\n');
    await integration.activate({ name: 'Minecraft' });
    const first = bed.feeds.latest('tail', 'log');
    await first.deliver({ reset: 'opened', file: log });
    await integration.deactivate();
    await first.deliver({ line: chat('MrChozo drowned'), file: log });
    await integration.activate({ name: 'Minecraft' });
    await integration.activate({ name: 'Minecraft' }); // twice: still one timer, one handler per feed
    await deliver({ line: chat('MrChozo drowned'), file: log });
    expect(bed.bookmarks.added).to.deep.equal([]);
  });
});
