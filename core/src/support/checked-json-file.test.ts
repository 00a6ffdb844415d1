import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readCheckedJson, type UnreadableFile } from './checked-json-file.js';

describe('readCheckedJson', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-json-'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  const problemsOf = (value: unknown) => (typeof (value as { n?: unknown }).n === 'number' ? [] : ['/n: a number']);

  it('gives the checked value; a missing file is undefined without a report, an unreadable one says why', async () => {
    const reports: UnreadableFile[] = [];
    const read = (name: string) => readCheckedJson<{ n: number }>(path.join(folder, name), problemsOf, (why) => reports.push(why));
    await writeFile(path.join(folder, 'good.json'), '{"n": 1}');
    await writeFile(path.join(folder, 'broken.json'), '{"n": ');
    await writeFile(path.join(folder, 'wrong.json'), '{"n": "1"}');
    expect(await read('good.json')).to.deep.equal({ n: 1 });
    expect(await read('missing.json')).to.equal(undefined);
    expect(reports).to.deep.equal([]);
    expect(await read('broken.json')).to.equal(undefined);
    expect(reports[0]!.error).to.be.instanceOf(SyntaxError);
    expect(await read('wrong.json')).to.equal(undefined);
    expect(reports[1]).to.deep.equal({ problems: ['/n: a number'] });
  });
});
