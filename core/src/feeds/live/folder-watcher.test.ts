import { expect } from 'chai';
import { mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { FolderInput, WatchFolderOptions } from '../../sdk/feed-types.js';
import { FolderWatcher } from './folder-watcher.js';
import { MemoryLogger } from './memory-logger.js';
import { waitFor } from './wait-for.js';

describe('FolderWatcher', () => {
  let folder: string;
  let inputs: FolderInput[];
  let watcher: FolderWatcher | undefined;

  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-folder-'));
    inputs = [];
  });
  afterEach(async () => {
    await watcher?.close();
    watcher = undefined;
    await rm(folder, { recursive: true, force: true });
  });

  async function watchFolder(options: Partial<WatchFolderOptions> = {}): Promise<void> {
    watcher = new FolderWatcher(
      { feed: 'replays', logger: new MemoryLogger(), emit: (input) => inputs.push(input) },
      { folder, intervalMs: 50, stableMs: 100, ...options },
    );
    await watcher.ready;
  }

  it('ignores files that were there when it opened and delivers a new one once', async () => {
    await writeFile(path.join(folder, 'old.rep'), 'old');
    await watchFolder();
    await writeFile(path.join(folder, 'new.rep'), 'new file');
    await waitFor(() => inputs.length === 1, 'the new file');
    await delay(250);
    expect(inputs).to.deep.equal([{ path: 'new.rep', absolutePath: path.join(folder, 'new.rep'), size: 8 }]);
  });

  it('waits until a file written in chunks stops growing', async () => {
    await watchFolder({ stableMs: 250 });
    const file = await open(path.join(folder, 'match.rep'), 'w');
    try {
      for (let chunk = 0; chunk < 5; chunk++) {
        await file.write(Buffer.alloc(1000, chunk));
        await delay(40);
        expect(inputs, `delivered while still written (chunk ${chunk})`).to.deep.equal([]);
      }
    } finally {
      await file.close();
    }
    await waitFor(() => inputs.length === 1, 'the finished file');
    expect(inputs[0]?.size).to.equal(5000);
    await delay(200);
    expect(inputs).to.have.length(1);
  });

  it('matches the pattern against the path relative to the folder, in sub-folders too', async () => {
    await watchFolder({ pattern: /^games\/.*\.rep$/ });
    await mkdir(path.join(folder, 'games', 'ranked'), { recursive: true });
    await writeFile(path.join(folder, 'games', 'notes.txt'), 'skip me');
    await writeFile(path.join(folder, 'top.rep'), 'skip me too');
    await writeFile(path.join(folder, 'games', 'ranked', 'match 1.rep'), 'replay');
    await waitFor(() => inputs.length === 1, 'the matching file');
    await delay(200);
    expect(inputs).to.deep.equal([
      { path: 'games/ranked/match 1.rep', absolutePath: path.join(folder, 'games', 'ranked', 'match 1.rep'), size: 6 },
    ]);
  });

  it('waits for a folder that does not exist yet', async () => {
    const later = path.join(folder, 'created later');
    await watchFolder({ folder: later });
    await mkdir(later);
    await writeFile(path.join(later, 'first.rep'), 'replay');
    await waitFor(() => inputs.length === 1, 'the file in the new folder');
    expect(inputs[0]?.path).to.equal('first.rep');
  });

  it('sees a folder created later, levels deep, without waiting for the timer', async () => {
    const later = path.join(folder, 'Saved', 'Demos');
    // The timer alone would take a minute: only watching can deliver in time.
    await watchFolder({ folder: later, intervalMs: 60_000 });
    await mkdir(path.join(folder, 'Saved'));
    await delay(200);
    await mkdir(later);
    await delay(200);
    await mkdir(path.join(later, 'match_1'));
    await writeFile(path.join(later, 'match_1', 'events.json'), '{}');
    await waitFor(() => inputs.length === 1, 'the replay in the folder created later', 5000);
    expect(inputs[0]?.path).to.equal('match_1/events.json');
  });
});
