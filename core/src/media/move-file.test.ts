import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { moveFile, reserveFreePath } from './move-file.js';

describe('moveFile', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-move-file-'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  const digest = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

  it('never replaces a file already at the target: it takes the next free name', async () => {
    const target = path.join(folder, 'out', 'match.mp4');
    await writeFile(path.join(folder, 'first'), 'first');
    await writeFile(path.join(folder, 'second'), 'second');
    expect(await moveFile(path.join(folder, 'first'), target)).to.equal(target);
    expect(await moveFile(path.join(folder, 'second'), target)).to.equal(path.join(folder, 'out', 'match (1).mp4'));
    expect(await readFile(target, 'utf8')).to.equal('first');
    expect(await readFile(path.join(folder, 'out', 'match (1).mp4'), 'utf8')).to.equal('second');
    expect((await readdir(folder)).sort()).to.deep.equal(['out']);
  });

  it('20 moves to one name at once give 20 distinct files, none lost', async () => {
    const sources = await Promise.all(
      Array.from({ length: 20 }, async (_, index) => {
        const file = path.join(folder, `source-${index}`);
        await writeFile(file, `video ${index} `.repeat(1000 + index));
        return { file, sum: digest(await readFile(file)) };
      }),
    );
    const target = path.join(folder, 'Clips', 'same.mp4');
    const placed = await Promise.all(sources.map((source) => moveFile(source.file, target)));
    expect(new Set(placed).size).to.equal(20);
    const sums = await Promise.all(placed.map(async (file) => digest(await readFile(file))));
    expect(sums.sort()).to.deep.equal(sources.map((source) => source.sum).sort());
    expect(await readdir(path.join(folder, 'Clips'))).to.have.length(20);
    expect((await readdir(folder)).filter((name) => name.startsWith('source-'))).to.deep.equal([]);
  });
});

describe('reserveFreePath', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-reserve-'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  it('gives 10 callers at once 10 different names, each created empty, and leaves existing files alone', async () => {
    const target = path.join(folder, 'rec.mp4');
    await writeFile(target, 'someone else');
    const names = await Promise.all(Array.from({ length: 10 }, () => reserveFreePath(target)));
    expect(new Set(names).size).to.equal(10);
    expect(names).not.to.include(target);
    expect(await readFile(target, 'utf8')).to.equal('someone else');
    for (const name of names) expect(await readFile(name, 'utf8')).to.equal('');
  });
});
