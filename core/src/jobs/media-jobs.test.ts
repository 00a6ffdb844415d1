import 'reflect-metadata';
import { expect } from 'chai';
import { MediaJobs } from './media-jobs.js';

const later = (ms: number, fail = false) => new Promise<void>((resolve, reject) => setTimeout(() => (fail ? reject(new Error('job failed')) : resolve()), ms));

describe('MediaJobs', () => {
  it('idle waits for tracked work, failed work included, and for work tracked while it waits', async () => {
    const jobs = new MediaJobs();
    const settled: string[] = [];
    jobs.track(later(30).then(() => {
      settled.push('first');
      void jobs.track(later(20).then(() => settled.push('follow-up')));
    }));
    jobs.track(later(10, true)).catch(() => settled.push('failed'));
    await jobs.idle();
    expect(settled).to.deep.equal(['failed', 'first', 'follow-up']);
  });

  it('starts no ffmpeg once shutdown began', async () => {
    const jobs = new MediaJobs();
    await jobs.shutdown();
    expect(() => jobs.ffmpeg({ ffmpegPath: 'ffmpeg', args: ['-version'] })).to.throw(/stopping/);
  });
});
