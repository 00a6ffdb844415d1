import { expect } from 'chai';
import { HudMessageTracker } from './hud-message-tracker.js';
import { recordedData, recordedFiles } from './recorded-hudmsg.js';

const body = (...damage: Array<[number, string, number?]>) =>
  JSON.stringify({
    events: [],
    damage: damage.map(([id, msg, time]) => ({ id, msg, sender: '', enemy: false, mode: '', time: time ?? 100 })),
  });

describe('HudMessageTracker', () => {
  it('takes the first answer as a baseline and asks for what follows it', () => {
    const tracker = new HudMessageTracker();
    expect(tracker.cursor).to.deep.equal({ lastEvt: 0, lastDmg: 0 });
    expect(tracker.update(body([5, 'a'], [9, 'b']))).to.deep.include({ outcome: 'baseline' });
    expect(tracker.cursor).to.deep.equal({ lastEvt: 0, lastDmg: 9 });
    expect(tracker.update(body([10, 'c', 120]))).to.deep.equal({
      outcome: 'messages',
      messages: [{ id: 10, text: 'c', gameSeconds: 120 }],
    });
    expect(tracker.cursor.lastDmg).to.equal(10);
  });

  it('takes an empty first answer (hangar) as a baseline too: the first battle message is new', () => {
    const tracker = new HudMessageTracker();
    expect(tracker.update('{"events":[],"damage":[]}')).to.deep.include({ outcome: 'baseline' });
    expect(tracker.update(body([1, 'first']))).to.deep.include({ outcome: 'messages' });
  });

  it('drops messages already seen and sorts new ones by id', () => {
    const tracker = new HudMessageTracker();
    tracker.update(body([40, 'old']));
    const update = tracker.update(body([57, 'later', 232], [40, 'old'], [43, 'earlier', 191]));
    expect(update).to.deep.equal({
      outcome: 'messages',
      messages: [
        { id: 43, text: 'earlier', gameSeconds: 191 },
        { id: 57, text: 'later', gameSeconds: 232 },
      ],
    });
    expect(tracker.update(body([57, 'later']))).to.deep.equal({ outcome: 'messages', messages: [] });
  });

  it('re-baselines when ids start again below the ones seen', () => {
    const tracker = new HudMessageTracker();
    tracker.update(body([211, 'end of a battle']));
    const update = tracker.update(body([1, 'new session', 13]));
    expect(update).to.deep.include({ outcome: 'baseline' });
    expect(tracker.cursor.lastDmg).to.equal(1);
    expect(tracker.update(body([2, 'next', 20]))).to.deep.include({ outcome: 'messages' });
  });

  it('follows event ids for lastEvt', () => {
    const tracker = new HudMessageTracker();
    tracker.update('{"events":[{"id":3},{"id":7}],"damage":[]}');
    expect(tracker.cursor).to.deep.equal({ lastEvt: 7, lastDmg: 0 });
    tracker.update('{"events":[{"id":8}],"damage":[]}');
    expect(tracker.cursor).to.deep.equal({ lastEvt: 8, lastDmg: 0 });
  });

  it('ignores bodies it cannot read and skips unusable entries without losing its place', () => {
    const tracker = new HudMessageTracker();
    tracker.update(body([10, 'a']));
    for (const bad of ['', 'not json', 'null', '[]', '{}', '{"damage":null}', '{"damage":{}}', '<html>502</html>']) {
      expect(tracker.update(bad), bad).to.deep.include({ outcome: 'malformed' });
    }
    expect(tracker.cursor.lastDmg).to.equal(10);
    const update = tracker.update(
      JSON.stringify({
        damage: [
          null,
          5,
          { id: -1, msg: 'x' },
          { id: 1.5, msg: 'x' },
          { id: '12', msg: 'x' },
          { msg: 'no id' },
          { id: 11, msg: 42 },
          { id: 12, msg: 'kept', time: 'soon' },
          { id: 13, msg: 'kept too', time: -4 },
        ],
      }),
    );
    expect(update).to.deep.equal({
      outcome: 'messages',
      messages: [
        { id: 12, text: 'kept', gameSeconds: undefined },
        { id: 13, text: 'kept too', gameSeconds: undefined },
      ],
    });
    expect(tracker.cursor.lastDmg).to.equal(13);
  });

  it('reads every real recorded answer', function () {
    recordedData.skipIfAbsent(this);
    for (const file of recordedFiles()) {
      const tracker = new HudMessageTracker();
      tracker.update('{"events":[],"damage":[]}');
      const update = tracker.update(recordedData.text(file));
      expect(update.outcome, file).to.equal('messages');
    }
  });

  it('forgets its place on reset()', () => {
    const tracker = new HudMessageTracker();
    tracker.update(body([10, 'a']));
    tracker.reset();
    expect(tracker.cursor).to.deep.equal({ lastEvt: 0, lastDmg: 0 });
    expect(tracker.update(body([11, 'b']))).to.deep.include({ outcome: 'baseline' });
  });
});
