import { expect } from 'chai';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gameData, GAME_DATA_VARIABLE } from './game-data.js';

describe('gameData', () => {
  let root: string;
  const before = process.env[GAME_DATA_VARIABLE];
  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'keyframe-game-data-'));
    process.env[GAME_DATA_VARIABLE] = root;
  });
  afterEach(async () => {
    if (before === undefined) delete process.env[GAME_DATA_VARIABLE];
    else process.env[GAME_DATA_VARIABLE] = before;
    await rm(root, { recursive: true, force: true });
  });

  it('reads a game folder under the root KEYFRAME_GAME_DATA names', async () => {
    await mkdir(path.join(root, 'my-game'));
    await writeFile(path.join(root, 'my-game', 'console.log'), 'first\r\nsecond\n');
    const data = gameData('my-game');
    expect(data.present).to.equal(true);
    expect(data.lines('console.log')).to.deep.equal(['first', 'second']);
  });

  it('skips the test with a title that says what is missing, where it looked, and how to point it elsewhere', () => {
    const data = gameData('absent-game', 'recorded absent-game logs');
    const test = { title: 'finds the deaths' };
    let skipped = false;
    data.skipIfAbsent({ currentTest: test, skip: () => (skipped = true) } as unknown as Mocha.Context);
    expect(skipped).to.equal(true);
    expect(test.title).to.equal(
      `finds the deaths (skipped: recorded absent-game logs not found at ${path.join(root, 'absent-game')}; ` +
        `set KEYFRAME_GAME_DATA to a folder holding absent-game/)`,
    );
  });
});
