// The tapes under test/data are written by the generator from TAPE_CASES: this keeps the two the same.
// `KEYFRAME_WRITE_TAPES=1 npm test -w plugins/battle-royale` rewrites them after a change to a case.
import { expect } from 'chai';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TAPE_CASES } from './tape-cases.js';
import { writeTapeCase } from './tape-writer.js';

const DATA = fileURLToPath(new URL('../../test/data/', import.meta.url));

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .sort();
}

describe('generated tapes', () => {
  if (process.env.KEYFRAME_WRITE_TAPES === '1') {
    it('rewrites test/data from the tape cases', async () => {
      for (const tapeCase of TAPE_CASES) await writeTapeCase(DATA, tapeCase);
    });
    return;
  }
  let generated: string;
  before(async () => {
    generated = await mkdtemp(path.join(os.tmpdir(), 'battle-royale-tapes-'));
    for (const tapeCase of TAPE_CASES) await writeTapeCase(generated, tapeCase);
  });
  after(() => rm(generated, { recursive: true, force: true }));

  it('test/data holds exactly what the generator writes', async () => {
    const files = await filesUnder(generated);
    expect(await filesUnder(DATA)).to.deep.equal(files);
    for (const file of files) {
      expect((await readFile(path.join(DATA, file))).equals(await readFile(path.join(generated, file))), file).to.equal(true);
    }
  });
});
