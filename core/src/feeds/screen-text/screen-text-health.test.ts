import { expect } from 'chai';
import { ScreenTextHealth } from './screen-text-health.js';

const read = (text: string, confidence = 90) => ({ kind: 'read' as const, input: { text, confidence, frameTimeMs: 0 } });

describe('ScreenTextHealth', () => {
  it('says so when nothing legible was read for long, and takes it back when text shows', () => {
    const reports: (string | undefined)[] = [];
    const health = new ScreenTextHealth('hud', (reason) => reports.push(reason), 60_000);
    health.onReading(read('', 0), 10_000);
    health.onReading(read('~', 20), 40_000); // noise, not text
    expect(reports).to.deep.equal([]);
    health.onReading(read('', 0), 70_000);
    expect(reports).to.have.length(1);
    expect(reports[0]).to.match(
      /^No on-screen text read by screenText feed "hud" in 60 s of recording: if events happened, something may cover/,
    );
    health.onReading(read('GOAL'), 80_000);
    expect(reports.at(-1)).to.equal(undefined);
    health.onReading(read('', 0), 900_000); // once text was seen, quiet stretches are normal
    expect(reports).to.have.length(2);
  });

  it('reports an unsupported aspect ratio until the frames fit again', () => {
    const reports: (string | undefined)[] = [];
    const health = new ScreenTextHealth('hud', (reason) => reports.push(reason));
    health.onReading({ kind: 'unsupportedAspect', reason: 'not 16:9' }, 0);
    health.onReading({ kind: 'unsupportedAspect', reason: 'not 16:9' }, 250);
    health.onReading(read('GOAL'), 500);
    expect(reports).to.deep.equal(['not 16:9', undefined]);
  });
});
