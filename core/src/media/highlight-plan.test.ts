import { expect } from 'chai';
import {
  bookmarkMoments,
  capWindows,
  HIGHLIGHT_WINDOWS,
  loudestMoments,
  planHighlight,
  plannedSeconds,
  rebaseTime,
  type Moment,
} from './highlight-plan.js';
import { parseLoudness } from './loudness.js';

const kill = (time: number): Moment => ({ time, window: HIGHLIGHT_WINDOWS.Kill! });

describe('highlight plan', () => {
  it('keeps only positive bookmarks, each with its type window', () => {
    const moments = bookmarkMoments([
      { type: 'Kill', seconds: 30 },
      { type: 'Death', seconds: 40 },
      { type: 'Manual', seconds: 50 },
      { type: 'Assist', seconds: 60 },
      { type: 'Goal', seconds: 90 },
    ]);
    expect(moments.map((moment) => moment.time)).to.deep.equal([30, 60, 90]);
    expect(planHighlight(moments, { durationSeconds: 200 })).to.deep.equal([
      { start: 22, end: 33, moments: [30] },
      { start: 54, end: 63, moments: [60] },
      { start: 80, end: 94, moments: [90] },
    ]);
  });

  it('merges overlapping windows and windows less than 2 s apart, not those further apart', () => {
    // 20: 12-23; 25: 17-28 (overlaps); 37.5: 29.5-40.5 (1.5 s gap: merged); 51: 43-54 (2.5 s gap: apart)
    const windows = planHighlight([kill(37.5), kill(20), kill(25), kill(51)], { durationSeconds: 100 });
    expect(windows).to.deep.equal([
      { start: 12, end: 40.5, moments: [20, 25, 37.5] },
      { start: 43, end: 54, moments: [51] },
    ]);
  });

  it('clamps to the video and drops moments outside it', () => {
    const windows = planHighlight([kill(2), kill(19), kill(25), kill(-1)], { durationSeconds: 20 });
    expect(windows).to.deep.equal([
      { start: 0, end: 5, moments: [2] },
      { start: 11, end: 20, moments: [19] },
    ]);
    expect(planHighlight([kill(30)], { durationSeconds: 20 })).to.deep.equal([]);
  });

  it('caps the total length, keeping the densest windows in time order', () => {
    // Lone kills every 30 s (11 s each) and a dense group of three kills at 200-204 (192-207)
    const moments = [kill(30), kill(60), kill(90), kill(120), kill(150), kill(200), kill(202), kill(204)];
    const windows = planHighlight(moments, { durationSeconds: 300, maxSeconds: 40 });
    expect(plannedSeconds(windows)).to.be.at.most(40);
    expect(windows[windows.length - 1]).to.deep.equal({ start: 192, end: 207, moments: [200, 202, 204] });
    expect(windows.map((window) => window.start)).to.deep.equal([...windows.map((window) => window.start)].sort((a, b) => a - b));
    // 15 s dense + two 11 s windows (the earliest first on equal density) + the next one trimmed around its kill to the 3 s left
    expect(windows.map((window) => [window.start, window.end])).to.deep.equal([
      [22, 33],
      [52, 63],
      [88.5, 91.5],
      [192, 207],
    ]);
    expect(plannedSeconds(windows)).to.equal(40);
  });

  it('trims a window longer than the cap around its moments', () => {
    const [window] = capWindows([{ start: 0, end: 100, moments: [40, 50] }], 20);
    expect(window).to.deep.equal({ start: 35, end: 55, moments: [40, 50] });
  });

  it('re-bases source times onto the joined highlight', () => {
    const windows = [
      { start: 10, end: 20, moments: [] },
      { start: 50, end: 55, moments: [] },
    ];
    expect(rebaseTime(windows, 12)).to.equal(2);
    expect(rebaseTime(windows, 52.5)).to.equal(12.5);
    expect(rebaseTime(windows, 30)).to.equal(undefined);
  });

  it('picks the loudest readings as moments, skipping silence, quiet readings and those inside a louder window', () => {
    const samples = parseLoudness(
      [
        'frame:0    pts:0       pts_time:0',
        'lavfi.astats.Overall.RMS_level=-inf',
        'frame:1    pts:4000    pts_time:0.5',
        'lavfi.astats.Overall.RMS_level=-40.0',
        'frame:2    pts:8000    pts_time:1',
        'lavfi.astats.Overall.RMS_level=-12.5',
        'frame:3    pts:12000   pts_time:1.5',
        'lavfi.astats.Overall.RMS_level=-12.0',
        'frame:4    pts:16000   pts_time:10',
        'lavfi.astats.Overall.RMS_level=-15.0',
      ].join('\n'),
    );
    expect(samples).to.have.length(5);
    expect(samples[0]!.level).to.equal(Number.NEGATIVE_INFINITY);
    const moments = loudestMoments(samples, { count: 5, withinDb: 10, sampleSeconds: 0.5, window: { before: 4, after: 4 } });
    expect(moments.map((moment) => moment.time)).to.deep.equal([1.75, 10.25]);
    expect(
      loudestMoments([{ time: 0, level: Number.NEGATIVE_INFINITY }], {
        count: 5,
        withinDb: 10,
        sampleSeconds: 0.5,
        window: { before: 1, after: 1 },
      }),
    ).to.deep.equal([]);
  });
});
