import { expect } from 'chai';
import { parseReplayEvent } from './replay-event.js';
import { eventBytes, framed, kill, knock } from './test-support/replay-generator.js';

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');

describe('parseReplayEvent', () => {
  it('reads the offset and the base64 details of a knock', () => {
    expect(parseReplayEvent(eventBytes(knock(120_500, '[KFR]Hunter', 'Victim'), 'DBNO0'), 'knock')).to.deep.equal({
      ok: true,
      event: { offsetMs: 120_500, instigator: 'hunter', victim: 'victim', victimWasKnocked: false },
    });
  });

  it('reads whether a killed player had been knocked first', () => {
    const finish = parseReplayEvent(eventBytes(kill(1, 'A', 'B', true), 'kill0'), 'kill');
    const instant = parseReplayEvent(eventBytes(kill(1, 'A', 'B', false), 'kill1'), 'kill');
    expect(finish.ok && finish.event.victimWasKnocked).to.equal(true);
    expect(instant.ok && instant.event.victimWasKnocked).to.equal(false);
  });

  it('accepts killerName for the instigator and an empty instigator (the zone, a fall)', () => {
    const byKiller = parseReplayEvent(framed({ time1: 5, data: encode({ killerName: 'A', victimName: 'B' }) }), 'knock');
    expect(byKiller.ok && byKiller.event.instigator).to.equal('a');
    const zone = parseReplayEvent(framed({ time1: 5, data: encode({ instigatorName: '', victimName: 'B', bDBNO: false }) }), 'kill');
    expect(zone.ok && zone.event.instigator).to.equal('');
  });

  it('refuses events it cannot read, saying why', () => {
    const cases: [Buffer, 'knock' | 'kill', string][] = [
      [
        framed({ data: encode({ instigatorName: 'A', victimName: 'B' }) }),
        'knock',
        'its time1 (milliseconds into the match) is missing or not a non-negative integer',
      ],
      [
        framed({ time1: -1, data: encode({ instigatorName: 'A', victimName: 'B' }) }),
        'knock',
        'its time1 (milliseconds into the match) is missing or not a non-negative integer',
      ],
      [framed({ time1: 5, data: 'not base64!' }), 'knock', 'its data is not base64'],
      [framed({ time1: 5, data: Buffer.from('{"instigatorName":').toString('base64') }), 'knock', 'its data does not decode to JSON'],
      [framed({ time1: 5, data: encode('text') }), 'knock', 'its data is not a JSON object'],
      [framed({ time1: 5, data: encode({ victimName: 'B' }) }), 'knock', 'its data names no instigator or no victim'],
      [framed({ time1: 5, data: encode({ instigatorName: 'A', victimName: 'B' }) }), 'kill', 'its data has no bDBNO flag'],
    ];
    for (const [bytes, kind, reason] of cases) expect(parseReplayEvent(bytes, kind)).to.deep.equal({ ok: false, reason });
  });
});
