import { expect } from 'chai';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { produceInto, removeUnfinishedOutputs } from './job-output.js';

describe('removeUnfinishedOutputs', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-job-output-'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  it('removes temporary outputs below the type folders and non-empty work folders, nothing else', async () => {
    const files = {
      clip: 'Clips/Arena/2026-01-01_10-00-00.mp4',
      partial: 'Clips/Arena/.2026-01-01_10-01-00.mp4.part',
      compressed: 'Full Sessions/Game/.match-compressed.mp4.part',
      hidden: 'Clips/Arena/.notes',
      named: 'Clips/Arena/movie.part',
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
    expect(removed.map((file) => path.relative(folder, file)).sort()).to.deep.equal(
      [files.partial, files.compressed, 'cache/clip-work'].sort(),
    );
    const left = (await readdir(folder, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
      .sort();
    expect(left).to.deep.equal([files.clip, files.hidden, files.named].sort());
  });
});

describe('produceInto', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-produce-'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  it('gives jobs aiming at one name their own temporary files and their own final files', async () => {
    const target = path.join(folder, 'Imported', 'x.mp4');
    const temps = new Set<string>();
    const outputs = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        produceInto(target, async (temp) => {
          temps.add(temp);
          await writeFile(temp, `job ${index}`);
          await new Promise((resolve) => setTimeout(resolve, 10));
          return index;
        }),
      ),
    );
    expect(temps.size).to.equal(6);
    for (const temp of temps) expect(path.basename(temp)).to.match(/^\.x\.mp4\.[0-9a-f]+\.part$/);
    expect(new Set(outputs.map((output) => output.filePath)).size).to.equal(6);
    for (const { value, filePath } of outputs) expect(await readFile(filePath, 'utf8')).to.equal(`job ${value}`);
    expect(await readdir(path.join(folder, 'Imported'))).to.have.length(6);
  });
});
