import { expect } from 'chai';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PUSH_TOKEN_FILE_NAME, PushTokenStore, pushTokenFile } from './push-token.js';

describe('PushTokenStore', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-push-token-'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  it('makes a random token once, keeps it owner-only in the data folder, and reads the same one at every start', async () => {
    const file = pushTokenFile(folder);
    expect(path.basename(file)).to.equal(PUSH_TOKEN_FILE_NAME);
    const token = await new PushTokenStore(file).token();
    expect(token).to.match(/^[0-9a-f]{32}$/);
    expect(await readFile(file, 'utf8')).to.equal(`${token}\n`);
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).to.equal(0o600);
    expect(await new PushTokenStore(file).token(), 'after a restart').to.equal(token);
    expect(await readdir(folder), 'no temp file left').to.deep.equal([PUSH_TOKEN_FILE_NAME]);

    const elsewhere = await mkdtemp(path.join(os.tmpdir(), 'keyframe-push-token-'));
    try {
      expect(await new PushTokenStore(pushTokenFile(elsewhere)).token(), 'another data folder').to.not.equal(token);
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  it('gives everyone asking at once the same token, even from separate stores', async () => {
    const file = pushTokenFile(path.join(folder, 'new data folder'));
    const stores = [new PushTokenStore(file), new PushTokenStore(file), new PushTokenStore(file)];
    const tokens = await Promise.all(stores.flatMap((store) => [store.token(), store.token()]));
    expect(new Set(tokens).size).to.equal(1);
    expect(await readFile(file, 'utf8')).to.equal(`${tokens[0]}\n`);
  });

  it('reads a token the user put there (line ends aside)', async () => {
    await writeFile(pushTokenFile(folder), 'MyOwnToken0123456789\r\n');
    expect(await new PushTokenStore(pushTokenFile(folder)).token()).to.equal('MyOwnToken0123456789');
  });

  it('refuses a damaged file with what to do, and leaves it as it is', async () => {
    const file = pushTokenFile(folder);
    await writeFile(file, 'bad "token"');
    const store = new PushTokenStore(file);
    const failure = await store.token().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect((failure as Error).message).to.equal(
      `The game push token ${file} is damaged: delete it, switch the integration off and on, and restart the game.`,
    );
    expect(await readFile(file, 'utf8')).to.equal('bad "token"');
    await rm(file);
    expect(await store.token(), 'a failure is not remembered').to.match(/^[0-9a-f]{32}$/);
  });
});
