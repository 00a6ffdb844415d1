import 'reflect-metadata';
import type { PollInput, PollOptions } from '@keyframe/core';
import { IntegrationTestBed } from '@keyframe/integration-testkit';
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loggedInSession, writeClog } from './clog-fixtures.js';
import { NO_DATA_MESSAGE, NO_NICKNAME_MESSAGE, VehicleCombatIntegration } from './vehicle-combat-integration.js';

/** The same integration with a silence limit short enough for a test. */
class QuickVehicleCombatIntegration extends VehicleCombatIntegration {
  protected override readonly noDataTimeoutMs = 30;
}

const answer = (...damage: Array<[number, string, number]>) => ({
  status: 200,
  body: JSON.stringify({ events: [], damage: damage.map(([id, msg, time]) => ({ id, msg, sender: '', enemy: false, mode: '', time })) }),
});
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('VehicleCombatIntegration', () => {
  let temp: string;
  let bed: IntegrationTestBed;
  let integration: VehicleCombatIntegration;
  const logs = () => path.join(bed.gamePaths.localAppData(), 'WarThunder', '.game_logs');

  beforeEach(async () => {
    temp = await mkdtemp(path.join(os.tmpdir(), 'vehicle-combat-'));
    bed = new IntegrationTestBed({ key: 'vehicleCombat', root: temp });
    const { feeds, bookmarks, gamePaths, gameFiles, clock, logger, health } = bed;
    integration = new QuickVehicleCombatIntegration(feeds, bookmarks, gamePaths, gameFiles, clock, logger, health);
  });
  afterEach(async () => {
    await integration.deactivate();
    await rm(temp, { recursive: true, force: true });
  });

  const hudFeed = () => bed.feeds.latest('poll', 'hudmsg');
  /** The URL the feed would request next: the integration's URL function, asked as the feed asks it before each request. */
  function nextUrl(): string {
    const { url } = hudFeed().options as PollOptions;
    return typeof url === 'string' ? url : url();
  }

  /** Delivers a poll the way the host does, at `seconds` after the start. */
  async function poll(seconds: number, input: PollInput): Promise<void> {
    bed.clock.set(new Date(Date.UTC(2026, 0, 1, 12) + seconds * 1000));
    await hudFeed().deliver(input);
  }

  it('resolves its services from the container the host gives it', () => {
    expect(bed.resolve(VehicleCombatIntegration)).to.be.instanceOf(VehicleCombatIntegration);
  });

  it('asks for everything first, then only for ids after the newest seen, on the same feed', async () => {
    await writeClog(logs(), 'session.clog', loggedInSession('Me'));
    await integration.activate({ name: 'War Thunder' });
    expect(nextUrl()).to.equal('http://127.0.0.1:8111/hudmsg?lastEvt=0&lastDmg=0');
    expect((hudFeed().options as PollOptions).intervalMs).to.equal(500);

    const urls = [nextUrl()];
    await poll(1, answer([5, '-X- Me (Tiger) destroyed Other (T-34)', 40]));
    urls.push(nextUrl());
    await poll(1.5, { status: 200, body: '{"events":[],"damage":[]}' });
    urls.push(nextUrl());
    await poll(2, answer([6, '-X- Me (Tiger) destroyed Third (T-34)', 41]));
    urls.push(nextUrl());
    expect(urls).to.deep.equal([
      'http://127.0.0.1:8111/hudmsg?lastEvt=0&lastDmg=0',
      'http://127.0.0.1:8111/hudmsg?lastEvt=0&lastDmg=5',
      'http://127.0.0.1:8111/hudmsg?lastEvt=0&lastDmg=5',
      'http://127.0.0.1:8111/hudmsg?lastEvt=0&lastDmg=6',
    ]);
    expect(bed.feeds.opened.map(({ kind, id }) => `${kind}:${id}`)).to.deep.equal(['poll:hudmsg']);
    // The kill before the first answer was there already; the one after it is bookmarked, a quarter second before it arrived.
    expect(bed.bookmarks.added.map(({ type, at }) => [type, at!.toISOString()])).to.deep.equal([['Kill', '2026-01-01T12:00:01.750Z']]);
  });

  it('bookmarks a message once when an answer asked from an older cursor brings it again', async () => {
    await writeClog(logs(), 'session.clog', loggedInSession('Me'));
    await integration.activate({ name: 'War Thunder' });
    await poll(1, answer([5, 'start', 40]));
    await poll(1.5, answer([6, 'Me (Tiger) destroyed Other (T-34)', 41]));
    // The feed may ask again before the previous answer has moved the cursor: the same message comes back.
    await poll(2, answer([6, 'Me (Tiger) destroyed Other (T-34)', 41]));
    expect(bed.bookmarks.added.map(({ type }) => type)).to.deep.equal(['Kill']);
    expect(nextUrl()).to.equal('http://127.0.0.1:8111/hudmsg?lastEvt=0&lastDmg=6');
  });

  it('without a nickname is degraded at once and bookmarks nothing, until the log names the player', async () => {
    await integration.activate({ name: 'War Thunder' });
    expect(bed.health.current).to.equal(NO_NICKNAME_MESSAGE);
    await poll(1, answer([1, 'start', 10]));
    await poll(2, answer([2, 'Me (Tiger) destroyed Other (T-34)', 11]));
    expect(bed.bookmarks.added).to.deep.equal([]);

    await writeClog(logs(), 'session.clog', loggedInSession('Me'));
    await poll(3, answer([3, 'Me (Tiger) destroyed Third (T-34)', 12]));
    expect(bed.bookmarks.added).to.deep.equal([]); // looked again only 5 s after the last look
    await poll(6, answer([4, 'Me (Tiger) destroyed Fourth (T-34)', 15]));
    expect(bed.health.current).to.equal(undefined);
    expect(bed.bookmarks.added.map(({ type }) => type)).to.deep.equal(['Kill']);
  });

  it('says when the game does not answer at all, and stops saying it when it does', async () => {
    await writeClog(logs(), 'session.clog', loggedInSession('Me'));
    await integration.activate({ name: 'War Thunder' });
    await poll(0.5, { error: 'connect ECONNREFUSED 127.0.0.1:8111' });
    await poll(1, { status: 503, body: 'loading' });
    expect(bed.health.degradations).to.deep.equal([]);
    await delay(60);
    expect(bed.health.current).to.equal(NO_DATA_MESSAGE);
    await poll(40, answer([1, 'start', 10]));
    expect(bed.health.current).to.equal(undefined);
  });

  it('clears its health and forgets the battle on deactivate', async () => {
    await integration.activate({ name: 'War Thunder' });
    expect(bed.health.current).to.equal(NO_NICKNAME_MESSAGE);
    await integration.deactivate();
    expect(bed.health.current).to.equal(undefined);

    await writeClog(logs(), 'session.clog', loggedInSession('Me'));
    await integration.activate({ name: 'War Thunder' });
    expect(nextUrl()).to.equal('http://127.0.0.1:8111/hudmsg?lastEvt=0&lastDmg=0');
    await poll(1, answer([9, 'Me (Tiger) destroyed Other (T-34)', 40]));
    expect(bed.bookmarks.added).to.deep.equal([]);
  });

  it("finds the log beside the running game's executable", async () => {
    const game = path.join(temp, 'games', 'War Thunder');
    await writeClog(path.join(game, '.game_logs'), 'session.clog', loggedInSession('Beside'));
    await integration.activate({ name: 'War Thunder', executablePath: path.join(game, 'linux64', 'aces') });
    expect(bed.health.degradations).to.deep.equal([]);
    await poll(1, answer([1, 'start', 10]));
    await poll(2, answer([2, 'Other (T-34) destroyed =TAG= Beside (Tiger)', 11]));
    expect(bed.bookmarks.added.map(({ type }) => type)).to.deep.equal(['Death']);
  });
});
