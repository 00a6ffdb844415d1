import { expect } from 'chai';
import { PlayerDeathTracker, type LineMeaning } from './player-death-tracker.js';
import { readRecordedLines, RECORDED_LOGS, recordedData } from './recorded-logs.js';

const line = (chat: string) => `[16:37:42] [Render thread/INFO]: [CHAT] ${chat}`;
const gbkLine = (bytes: readonly number[]) => line('') + Buffer.from(bytes).toString('latin1');

describe('PlayerDeathTracker', () => {
  it('counts nothing until a Setting user: line names the player', () => {
    const tracker = new PlayerDeathTracker();
    expect(tracker.read(line('Steve drowned'))).to.deep.equal({ kind: 'ignored' });
    expect(tracker.player).to.equal(undefined);
    expect(tracker.read('[16:25:05] [Render thread/INFO]: Setting user: Steve')).to.deep.equal({ kind: 'player', name: 'Steve' });
    expect(tracker.player).to.equal('Steve');
    expect(tracker.read(line('Steve drowned'))).to.deep.equal({ kind: 'death', template: 'en_us:death.attack.drown' });
  });

  it('takes the player from a scan, and a later Setting user: line replaces it (another account)', () => {
    const tracker = new PlayerDeathTracker();
    tracker.setPlayer('Steve');
    expect(tracker.read(line('Steve drowned')).kind).to.equal('death');
    tracker.read('[16:25:05] [Render thread/INFO]: Setting user: Alex');
    expect(tracker.read(line('Steve drowned')).kind).to.equal('ignored');
    expect(tracker.read(line('Alex drowned')).kind).to.equal('death');
    tracker.setPlayer(undefined);
    expect(tracker.read(line('Alex drowned')).kind).to.equal('ignored');
  });

  it('reads a death written in GBK by a Chinese Windows client', () => {
    const tracker = new PlayerDeathTracker();
    tracker.setPlayer('gele178');
    // "gele178被A杀死了" and "A被gele178杀死了"
    expect(
      tracker.read(gbkLine([0x67, 0x65, 0x6c, 0x65, 0x31, 0x37, 0x38, 0xb1, 0xbb, 0x41, 0xc9, 0xb1, 0xcb, 0xc0, 0xc1, 0xcb])).kind,
    ).to.equal('death');
    expect(
      tracker.read(gbkLine([0x41, 0xb1, 0xbb, 0x67, 0x65, 0x6c, 0x65, 0x31, 0x37, 0x38, 0xc9, 0xb1, 0xcb, 0xc0, 0xc1, 0xcb])).kind,
    ).to.equal('ignored');
  });

  it('ignores broken lines without throwing', () => {
    const tracker = new PlayerDeathTracker();
    tracker.setPlayer('Steve');
    for (const broken of [
      '',
      '\u0000\u00ff\u00fe',
      line('\u00ff\u00fe\u00fd'),
      'x'.repeat(70_000),
      line('Steve'),
      '[CHAT] Steve drowned',
    ]) {
      expect(tracker.read(broken).kind).to.equal('ignored');
    }
  });

  describe('on the recorded logs', () => {
    before(function () {
      recordedData.skipIfAbsent(this);
    });

    for (const recorded of RECORDED_LOGS) {
      it(`${recorded.file}: ${recorded.player}, ${recorded.deathLines.length} deaths`, async () => {
        const tracker = new PlayerDeathTracker();
        const meanings: LineMeaning[] = readRecordedLines(recorded.file).map((text) => tracker.read(text));
        expect(tracker.player).to.equal(recorded.player);
        const deathLines = meanings.flatMap((meaning, index) => (meaning.kind === 'death' ? [index + 1] : []));
        expect(deathLines).to.deep.equal(recorded.deathLines);
      });
    }
  });
});
