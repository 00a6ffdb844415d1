// One progress scale for a job made of several steps (a smart cut: re-encoded heads, copied middles, the
// join), each step its share by its expected cost: a step reports how far it is (0–1), the job a percent
// of the whole, so that a step starting over at 0 never takes the job's progress back.

/** A step of a job and what it is expected to cost (any unit shared by the job's steps: seconds × cost per second). */
export interface ProgressPhase {
  readonly cost: number;
}

export class PhasedProgress {
  private readonly before: number[];
  private readonly total: number;

  /** `report` gets whole percents, never 100 (the job's end sends it); pass it through the job's guard (`risingProgress`). */
  constructor(
    private readonly phases: readonly ProgressPhase[],
    private readonly report: (percent: number) => void,
  ) {
    let sum = 0;
    this.before = phases.map((phase) => {
      const start = sum;
      sum += Math.max(0, phase.cost);
      return start;
    });
    this.total = sum;
  }

  /** Phase `index` is `fraction` (0–1) done. */
  at(index: number, fraction: number): void {
    const cost = Math.max(0, this.phases[index]!.cost);
    const done = this.before[index]! + cost * (fraction > 0 ? Math.min(1, fraction) : 0);
    this.report(this.total > 0 ? Math.min(99, Math.floor((done / this.total) * 100)) : 0);
  }
}
