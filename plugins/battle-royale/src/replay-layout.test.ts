import { expect } from 'chai';
import path from 'node:path';
import { demosFolderOf, REPLAY_FILE_PATTERN, replayFileOf } from './replay-layout.js';

const REPLAY = 'match.bro.official.pc-2018-31.steam.squad-fpp.eu.2026.11.24.19.01.00.a1';

describe('replay layout', () => {
  it('finds the Demos folder under the local app-data folder', () => {
    expect(demosFolderOf('/home/u/AppData/Local')).to.equal(path.join('/home/u/AppData/Local', 'TslGame', 'Saved', 'Demos'));
  });

  it('tells the info file, knocks and kills apart, and ignores the rest', () => {
    expect(replayFileOf(`${REPLAY}/PUBG.replayinfo`)).to.deep.equal({ replay: REPLAY, kind: 'info', path: `${REPLAY}/PUBG.replayinfo` });
    expect(replayFileOf(`${REPLAY}/events/DBNO3`)?.kind).to.equal('knock');
    expect(replayFileOf(`${REPLAY}/events/groggy3`)?.kind).to.equal('knock');
    expect(replayFileOf(`${REPLAY}/events/kill12`)?.kind).to.equal('kill');
    for (const other of [
      `${REPLAY}/events/matchStart0`,
      `${REPLAY}/data/0`,
      `${REPLAY}/demo/demo0`,
      'PUBG.replayinfo',
      `${REPLAY}/events/x/kill0`,
    ]) {
      expect(replayFileOf(other), other).to.equal(undefined);
    }
  });

  it('lets the feed watch only the info and event files, not the large demo chunks', () => {
    expect(REPLAY_FILE_PATTERN.test(`${REPLAY}/PUBG.replayinfo`)).to.equal(true);
    expect(REPLAY_FILE_PATTERN.test(`${REPLAY}/events/kill0`)).to.equal(true);
    expect(REPLAY_FILE_PATTERN.test(`${REPLAY}/demo/demo0`)).to.equal(false);
    expect(REPLAY_FILE_PATTERN.test(`${REPLAY}/data/0`)).to.equal(false);
  });
});
