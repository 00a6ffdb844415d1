import { expect } from 'chai';
import path from 'node:path';
import type { ContentType } from '../protocol/index.js';
import { artworkByFileName } from './artwork-by-file-name.js';

const cache = path.resolve('/data/cache');
const items = [
  { id: 'a'.repeat(32), type: 'Session' as ContentType, fileName: 'match one' },
  { id: 'b'.repeat(32), type: 'Clip' as ContentType, fileName: 'match one' },
];
const itemNamed = (type: ContentType, fileName: string) => items.find((item) => item.type === type && item.fileName === fileName);
const resolve = (file: string, kind: 'thumbnail' | 'waveform' = 'thumbnail') => artworkByFileName(file, kind, cache, itemNamed);

describe('artwork at the paths the reference frontend builds', () => {
  it('reads <kind>/<TypeFolder>/<fileName><suffix> as the artwork of the item of that type and fileName', () => {
    expect(resolve(`${cache}/thumbnails/Full Sessions/match one.jpeg`)).to.equal(
      path.join(cache, 'thumbnails', 'Full Sessions', `${'a'.repeat(32)}.jpeg`),
    );
    expect(resolve(`${cache}/thumbnails/Clips/match one.jpeg`)).to.equal(path.join(cache, 'thumbnails', 'Clips', `${'b'.repeat(32)}.jpeg`));
    expect(resolve(`${cache}/waveforms/Clips/match one.peaks.json`, 'waveform')).to.equal(
      path.join(cache, 'waveforms', 'Clips', `${'b'.repeat(32)}.peaks.json`),
    );
    expect(resolve(`${cache}/thumbnails/Full Sessions/../Clips/match one.jpeg`)).to.match(/Clips/);
  });

  it('names nothing for other folders, types, suffixes or names', () => {
    const nothing = [
      `${cache}/thumbnails/Replay Buffers/match one.jpeg`,
      `${cache}/thumbnails/Full Sessions/other.jpeg`,
      `${cache}/thumbnails/Full Sessions/match one.jpg`,
      `${cache}/thumbnails/Full Sessions/.jpeg`,
      `${cache}/thumbnails/full sessions/match one.jpeg`,
      `${cache}/thumbnails/Full Sessions/deeper/match one.jpeg`,
      `${cache}/waveforms/Full Sessions/match one.jpeg`,
      `${cache}/metadata/Full Sessions/match one.jpeg`,
      `${cache}/thumbnails/match one.jpeg`,
      `${cache}/../thumbnails/Full Sessions/match one.jpeg`,
      '/elsewhere/thumbnails/Full Sessions/match one.jpeg',
    ];
    for (const file of nothing) expect(resolve(file), file).to.equal(undefined);
    expect(resolve(`${cache}/thumbnails/Full Sessions/match one.peaks.json`, 'waveform')).to.equal(undefined);
  });
});
