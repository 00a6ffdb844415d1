import { expect } from 'chai';
import { InputModeTracker } from './input-mode-tracker.js';

const change = (from: string, to: string) =>
  `[2026.09.28-22.03.13:176][246]LogDominionPlayerController: Changing input mode from [${from}] to [${to}]`;
const deathsIn = (tracker: InputModeTracker, lines: string[]) => lines.map((line) => tracker.read(line));

describe('InputModeTracker', () => {
  it('reads a change from play into the dead state as a death, and the respawn as none', () => {
    expect(
      deathsIn(new InputModeTracker(), [
        change('DIM_Gameplay', 'DIM_Dead'),
        change('DIM_Dead', 'DIM_Gameplay'),
        change('DIM_Gameplay', 'DIM_Dead'),
      ]),
    ).to.deep.equal([true, false, true]);
  });

  it('counts a death from any other mode, and the first change it sees', () => {
    expect(new InputModeTracker().read(change('DIM_Menu', 'DIM_Dead'))).to.equal(true);
  });

  it('does not count the same death twice: repeated lines, dead to dead, a death without a respawn in between', () => {
    expect(
      deathsIn(new InputModeTracker(), [
        change('DIM_Gameplay', 'DIM_Dead'),
        change('DIM_Gameplay', 'DIM_Dead'),
        change('DIM_Dead', 'DIM_Dead'),
        change('DIM_Menu', 'DIM_Dead'),
        change('DIM_Dead', 'DIM_Gameplay'),
        change('DIM_Dead', 'DIM_Gameplay'),
      ]),
    ).to.deep.equal([true, false, false, false, false, false]);
  });

  it('counts the first death after reset() even when the last mode seen was dead', () => {
    const tracker = new InputModeTracker();
    tracker.read(change('DIM_Gameplay', 'DIM_Dead'));
    tracker.reset();
    expect(tracker.read(change('DIM_Gameplay', 'DIM_Dead'))).to.equal(true);
  });

  it('ignores other lines and broken or differently cased changes, without losing the mode', () => {
    const tracker = new InputModeTracker();
    tracker.read(change('DIM_Gameplay', 'DIM_Dead'));
    for (const line of [
      '',
      '\u0000\ufffd\ufffd',
      'Log file open, 09/28/26 22:03:30',
      change('DIM_Gameplay', 'DIM_De').slice(0, -1),
      'LogDominionPlayerController: changing input mode from [dim_gameplay] to [dim_dead]',
      change('', 'DIM_Dead'),
      'LogSpawn: Warning: SpawnActor failed to find teleport spot [X=1 Y=2 Z=3] for [BP_PlayerGravestone_C]',
    ]) {
      expect(tracker.read(line), line).to.equal(false);
    }
    expect(tracker.read(change('DIM_Gameplay', 'DIM_Dead')), 'still dead: no second death').to.equal(false);
  });
});
