import { expect } from 'chai';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ServiceOptions } from '../service-options.js';
import { TokenStore } from './token-store.js';

describe('TokenStore', () => {
  let folder: string;
  let store: TokenStore;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-tokens-'));
    store = new TokenStore(new ServiceOptions(folder, 0, undefined));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  it('keeps the tokens in a file in the data folder that only the user can read', async () => {
    await store.save({ accessToken: 'access-1', refreshToken: 'refresh-1' });
    expect(store.filePath).to.equal(path.join(folder, 'account', 'tokens.json'));
    expect((await stat(store.filePath)).mode & 0o777).to.equal(0o600);
    expect(await store.load()).to.deep.equal({ accessToken: 'access-1', refreshToken: 'refresh-1' });
    expect(JSON.parse(await readFile(store.filePath, 'utf8'))).to.deep.equal({ accessToken: 'access-1', refreshToken: 'refresh-1' });
  });

  it('forgets them', async () => {
    await store.save({ accessToken: 'access-1', refreshToken: 'refresh-1' });
    await store.clear();
    await store.clear();
    expect(await store.load()).to.equal(undefined);
  });

  it('treats a missing, broken or incomplete file as signed out', async () => {
    expect(await store.load()).to.equal(undefined);
    await store.save({ accessToken: 'a', refreshToken: 'r' });
    for (const text of ['{not json', '{"accessToken":"a"}', '{"accessToken":"","refreshToken":"r"}', '[]']) {
      await writeFile(store.filePath, text);
      expect(await store.load(), text).to.equal(undefined);
    }
  });
});
