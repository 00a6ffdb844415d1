import { expect } from 'chai';
import { BattleClock } from './battle-clock.js';

const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 12) + seconds * 1000);
const secondsOf = (date: Date) => (date.getTime() - Date.UTC(2026, 0, 1, 12)) / 1000;
const window = (after: number | undefined, arrivedAt: number) => ({
  after: after === undefined ? undefined : at(after),
  arrivedAt: at(arrivedAt),
});

/** Polls every 0.5 s from wall 0.012; battle second 0 began at wall 5.0. */
function steadyBattle(clock: BattleClock, events: number[]): void {
  for (const event of events) {
    const arrival = Math.ceil((event - 0.012) * 2) / 2 + 0.012;
    clock.place(window(arrival - 0.5, arrival), Math.floor(event - 5));
  }
}

describe('BattleClock', () => {
  it('places a message between the answer before and the answer that brought it', () => {
    const clock = new BattleClock(500);
    expect(secondsOf(clock.place(window(9.8, 10.3), 274))).to.be.closeTo(10.05, 0.001);
    expect(secondsOf(clock.place(window(10.3, 10.8), undefined))).to.be.closeTo(10.55, 0.001);
    expect(secondsOf(clock.place(window(undefined, 11.3), undefined))).to.be.closeTo(11.05, 0.001);
  });

  it('narrows a steady poll down with the battle clock', () => {
    const clock = new BattleClock(500);
    steadyBattle(clock, [205.0, 208.3, 211.6, 214.2]);
    // An event at wall 219.9 (battle second 214) arrives at 220.012.
    expect(secondsOf(clock.place(window(219.512, 220.012), 214))).to.be.closeTo(219.9, 0.25);
  });

  it('places messages that arrived late by the battle clock, within half a second', () => {
    const clock = new BattleClock(500);
    steadyBattle(clock, [205.0, 208.3, 211.6, 214.2, 222.7]);
    // A poll stalled for 4 s brings events at wall 225.4 and 228.1 only at wall 229.512.
    expect(secondsOf(clock.place(window(223.012, 229.512), 220))).to.be.closeTo(225.4, 0.5);
    expect(secondsOf(clock.place(window(223.012, 229.512), 223))).to.be.closeTo(228.1, 0.5);
  });

  it('starts again when the battle clock goes back (a new battle)', () => {
    const clock = new BattleClock(500);
    steadyBattle(clock, [205.0, 208.3]);
    // New battle: its clock restarted at wall 250; an event at wall 256.3 (battle second 6) arrives at 256.512.
    expect(secondsOf(clock.place(window(256.012, 256.512), 6))).to.be.closeTo(256.3, 0.25);
  });

  it('falls back on the answers when the battle clock disagrees with them', () => {
    const clock = new BattleClock(500);
    steadyBattle(clock, [205.0, 208.3]);
    // A reading that cannot be right for this battle (seconds ahead of wall time) does not move the bookmark off its poll.
    expect(secondsOf(clock.place(window(230.012, 230.512), 240))).to.be.closeTo(230.262, 0.001);
  });

  it('forgets the battle on reset()', () => {
    const clock = new BattleClock(500);
    steadyBattle(clock, [205.0]);
    clock.reset();
    expect(secondsOf(clock.place(window(300, 310), 11))).to.be.closeTo(309.75, 0.001);
  });
});
