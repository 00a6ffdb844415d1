import { expect } from 'chai';
import { cutPhases } from './clip/clip-service.js';
import { risingProgress } from './job-runner.js';
import { PhasedProgress } from './phased-progress.js';

describe('PhasedProgress', () => {
  it('puts each step on one scale by its cost, so a step starting over at 0 never takes the job back', () => {
    const sent: number[] = [];
    const progress = new PhasedProgress(
      [{ cost: 10 }, { cost: 30 }, { cost: 60 }],
      risingProgress((percent) => sent.push(percent)),
    );
    progress.at(0, 0.5);
    progress.at(0, 1);
    progress.at(1, 0);
    progress.at(1, 0.5);
    progress.at(2, 0);
    progress.at(2, 2);
    expect(sent).to.deep.equal([5, 10, 25, 40, 99]);
  });

  it('reports 0 for a job expected to cost nothing and for fractions that are not numbers', () => {
    const sent: number[] = [];
    const progress = new PhasedProgress([{ cost: 0 }, { cost: 1 }], (percent) => sent.push(percent));
    progress.at(1, Number.NaN);
    expect(sent).to.deep.equal([0]);
    new PhasedProgress([{ cost: 0 }], (percent) => sent.push(percent)).at(0, 1);
    expect(sent).to.deep.equal([0, 0]);
  });

  it('weighs a smart cut by re-encoded seconds against copied ones, the join a copy of the whole clip', () => {
    // 0.5 s head re-encoded, 2.5 s copied, joined (3 s): the head, though shortest, is most of the work.
    const phases = cutPhases(
      [
        { seconds: 0.5, encoded: true },
        { seconds: 2.5, encoded: false },
      ],
      3,
    );
    const sent: number[] = [];
    const progress = new PhasedProgress(phases, (percent) => sent.push(percent));
    progress.at(0, 1);
    progress.at(1, 1);
    expect(sent[0]).to.be.within(50, 80);
    expect(sent[1]).to.be.within(sent[0]! + 1, 90);
  });
});
