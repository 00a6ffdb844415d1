import { expect } from 'chai';
import type { FfmpegProgress } from '../media/ffmpeg-process.js';
import { EncodeHealth, keepUpShare, type EncodeHealthVerdict } from './encode-health.js';

/** Reports every half second, as `-progress` gives them, from an encode that makes `rate` frames and `speed` seconds of video per second. */
function run(
  health: EncodeHealth,
  from: number,
  to: number,
  { rate, speed, lostPerSecond = 0 }: { rate: number; speed: number; lostPerSecond?: number },
  state = { frame: 0, outTime: 0, lost: 0 },
): EncodeHealthVerdict[] {
  const verdicts: EncodeHealthVerdict[] = [];
  for (let at = from; at <= to; at += 500) {
    state.frame += rate / 2;
    state.outTime += speed / 2;
    state.lost += lostPerSecond / 2;
    const report: FfmpegProgress = {
      frame: Math.round(state.frame),
      outTimeSeconds: state.outTime,
      fps: undefined,
      speed: undefined,
      totalSizeBytes: undefined,
      droppedFrames: Math.round(state.lost),
      duplicatedFrames: 0,
      done: false,
    };
    verdicts.push(health.observe(report, at));
  }
  return verdicts;
}

describe('EncodeHealth', () => {
  it('keeps quiet about an encode that keeps up, and measures it once a window has passed', () => {
    const health = new EncodeHealth(60);
    const verdicts = run(health, 0, 10_000, { rate: 60, speed: 1 });
    expect(verdicts.every((verdict) => !verdict.overloaded)).to.equal(true);
    expect(verdicts[2]!.speed, 'not measured during warm-up').to.equal(undefined);
    expect(health.verdict).to.deep.include({ speed: 1, framesPerSecond: 60, reason: undefined, droppedFrames: 0 });
  });

  it('calls an encode slower than real time overloaded within a few seconds (the file would come out short)', () => {
    const health = new EncodeHealth(60);
    const verdicts = run(health, 0, 10_000, { rate: 42, speed: 0.7 });
    const first = verdicts.findIndex((verdict) => verdict.overloaded);
    expect(first * 500, 'ms to the verdict').to.be.within(5_000, 6_500);
    expect(health.verdict).to.deep.include({ overloaded: true, reason: 'speed', speed: 0.7, framesPerSecond: 42 });
    expect(keepUpShare(health.verdict)).to.equal(0.7);
  });

  it('calls a grab that loses frames overloaded though the clock is kept (fewer frames than the target rate)', () => {
    const health = new EncodeHealth(60);
    run(health, 0, 8_000, { rate: 45, speed: 1 });
    expect(health.verdict).to.deep.include({ overloaded: true, reason: 'frameRate', framesPerSecond: 45 });
    expect(keepUpShare(health.verdict)).to.equal(0.75);
  });

  it('calls growing dropped or duplicated frames overloaded when the output is short of frames', () => {
    const health = new EncodeHealth(30);
    run(health, 0, 8_000, { rate: 28, speed: 1, lostPerSecond: 3 });
    expect(health.verdict).to.deep.include({ overloaded: true, reason: 'droppedFrames' });
  });

  it('takes the drops of a frame-rate conversion (a 60 fps source recorded at 30) for what they are', () => {
    const health = new EncodeHealth(30);
    run(health, 0, 8_000, { rate: 30, speed: 1, lostPerSecond: 30 });
    expect(health.verdict).to.deep.include({ overloaded: false, droppedFrames: 255 });
  });

  it('ignores a slow start and a short dip inside the window, and tolerates an encode just under the rate', () => {
    const health = new EncodeHealth(60);
    const state = { frame: 0, outTime: 0, lost: 0 };
    run(health, 0, 1_500, { rate: 10, speed: 0.2 }, state);
    run(health, 2_000, 6_000, { rate: 57, speed: 1 }, state);
    run(health, 6_500, 7_000, { rate: 50, speed: 0.9 }, state);
    const verdicts = run(health, 7_500, 12_000, { rate: 57, speed: 1 }, state);
    expect(verdicts.some((verdict) => verdict.overloaded)).to.equal(false);
  });

  it('recovers only once the encode has kept up clearly for a whole window (hysteresis)', () => {
    const health = new EncodeHealth(60);
    const state = { frame: 0, outTime: 0, lost: 0 };
    run(health, 0, 8_000, { rate: 48, speed: 0.8 }, state);
    expect(health.verdict.overloaded).to.equal(true);
    // 0.96x is above the overload line but below the recovery line: still overloaded.
    run(health, 8_500, 16_000, { rate: 58, speed: 0.96 }, state);
    expect(health.verdict.overloaded).to.equal(true);
    const verdicts = run(health, 16_500, 24_000, { rate: 60, speed: 1 }, state);
    const recovered = verdicts.findIndex((verdict) => !verdict.overloaded);
    expect(recovered * 500, 'ms to recover').to.be.within(1_000, 3_500);
    expect(health.verdict).to.deep.include({ overloaded: false, reason: undefined });
  });
});
