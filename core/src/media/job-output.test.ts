import { expect } from 'chai';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { removeUnfinishedOutputs } from './job-output.js';

describe('removeUnfinishedOutputs', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-job-output-'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  it('removes temporary outputs below the type folders and non-empty work folders, nothing else', async () => {
    const files = {
      clip: 'Clips/Arena/2026-01-01_10-00-00.mp4', partial: 'Clips/Arena/.2026-01-01_10-01-00.mp4.part',
      compressed: 'Full Sessions/Game/.match-compressed.mp4.part', hidden: 'Clips/Arena/.notes', named: 'Clips/Arena/movie.part',
      work: 'cache/clip-work/1234/0-copy.ts',
    };
    for (const file of Object.values(files)) {
      await mkdir(path.dirname(path.join(folder, file)), { recursive: true });
      await writeFile(path.join(folder, file), 'x');
    }
    await mkdir(path.join(folder, 'cache', 'empty-work'));
    const removed = await removeUnfinishedOutputs(
      [path.join(folder, 'Clips'), path.join(folder, 'Full Sessions'), path.join(folder, 'Highlights')],
      [path.join(folder, 'cache', 'clip-work'), path.join(folder, 'cache', 'empty-work')],
    );
    expect(removed.map((file) => path.relative(folder, file)).sort()).to.deep.equal([files.partial, files.compressed, 'cache/clip-work'].sort());
    const left = (await readdir(folder, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile())
      .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name))).sort();
    expect(left).to.deep.equal([files.clip, files.hidden, files.named].sort());
  });
});
