import { expect } from 'chai';
import { parseReplayInfo } from './replay-info.js';
import { framed, replayInfoBytes } from './test-support/replay-generator.js';

describe('parseReplayInfo', () => {
  it('reads the match start (Unix milliseconds) and the recording player without clan tag', () => {
    const matchStartedAt = new Date('2026-11-24T19:01:00.250Z');
    expect(parseReplayInfo(replayInfoBytes({ folder: 'm', matchStartedAt, player: '[KFR]Hunter', events: [] }))).to.deep.equal({
      ok: true,
      info: { matchStartedAt, player: 'hunter' },
    });
  });

  it('refuses an info file without a usable Timestamp or nickname, saying which', () => {
    expect(parseReplayInfo(framed({ RecordUserNickName: 'Hunter' }))).to.deep.include({ ok: false });
    expect(parseReplayInfo(framed({ Timestamp: '1732474860000', RecordUserNickName: 'Hunter' }))).to.deep.equal({
      ok: false,
      reason: 'its Timestamp (match start, Unix milliseconds) is missing or not a positive integer',
    });
    expect(parseReplayInfo(framed({ Timestamp: 1.5, RecordUserNickName: 'Hunter' })).ok).to.equal(false);
    expect(parseReplayInfo(framed({ Timestamp: 1732474860000, RecordUserNickName: '[KFR]' }))).to.deep.equal({
      ok: false,
      reason: 'its RecordUserNickName (the recording player) is missing or empty',
    });
    expect(parseReplayInfo(framed({ timestamp: 1732474860000, recordUserNickName: 'Hunter' })).ok).to.equal(false);
  });
});
