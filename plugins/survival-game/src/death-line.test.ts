import { expect } from 'chai';
import { isDeathLine } from './death-line.js';
import { readRecordedLines, recordedData } from './recorded-log.js';

describe('isDeathLine', () => {
  it('finds exactly the two deaths among the recorded client log lines', async function () {
    recordedData.skipIfAbsent(this);
    const deaths = readRecordedLines().filter(isDeathLine);
    expect(deaths).to.deep.equal([
      '2026-03-21T05:34:35.817Z|0x2a7c|You died: killed by Suicide',
      '2026-03-21T05:38:55.622Z|0x2a7c|You died: killed by Spooder-Man (76561199844640850)',
    ]);
  });

  it('reads lines with and without the timestamp and thread id, in any case, with Windows line ends', () => {
    for (const line of [
      '2026-03-21T05:34:35.817Z|0x2a7c|You died: killed by Bear',
      'You died: killed by Bear',
      '2026-03-21T05:34:35.817Z|0x2a7c|YOU DIED: killed by Wolf',
      '2026-03-21T05:34:35.817Z|0x2a7c|You died\r',
      '\uFEFF2026-03-21T05:34:35.817Z|0x2a7c|You died: killed by Suicide',
    ]) {
      expect(isDeathLine(line), line).to.equal(true);
    }
  });

  it('ignores lines that only mention the words, and broken lines', () => {
    for (const line of [
      '',
      '|||',
      '2026-03-21T05:34:35.817Z|0x2a7c|',
      '2026-03-21T05:34:35.817Z|0x2a7c|You di',
      '2026-03-21T05:34:35.817Z|0x2a7c|You diedd',
      '[CHAT] Spooder-Man: lol you died again',
      '2026-03-21T05:34:35.817Z|0x2a7c|Player Spooder-Man: You died: killed by Suicide',
      '2026-03-21T05:28:13.845Z|0x2a7c|Connecting: 64.40.8.152:28014 (Raknet)',
      '\u0000\ufffd\ufffdPK',
    ]) {
      expect(isDeathLine(line), line).to.equal(false);
    }
  });
});
