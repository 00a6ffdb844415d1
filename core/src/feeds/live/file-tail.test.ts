import { expect } from 'chai';
import { appendFile, mkdtemp, rename, rm, truncate, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { TailInput, TailOptions } from '../../sdk/feed-types.js';
import { FileTail } from './file-tail.js';
import { MemoryLogger } from './memory-logger.js';
import { waitFor } from './wait-for.js';

describe('FileTail', () => {
  let folder: string;
  let log: string;
  let inputs: TailInput[];
  let tail: FileTail | undefined;

  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-tail-'));
    log = path.join(folder, 'latest.log');
    inputs = [];
  });
  afterEach(async () => {
    await tail?.close();
    tail = undefined;
    await rm(folder, { recursive: true, force: true });
  });

  async function follow(options: Partial<TailOptions> = {}): Promise<void> {
    tail = new FileTail(
      { feed: 'log', logger: new MemoryLogger(), emit: (input) => inputs.push(input) },
      { paths: [log], discoveryIntervalMs: 50, ...options },
    );
    await tail.ready;
  }

  const lines = (): string[] => inputs.flatMap((input) => ('line' in input ? [input.line] : []));
  const resets = (): string[] => inputs.flatMap((input) => ('reset' in input ? [input.reset] : []));

  it('starts at the end of the file and follows appends', async () => {
    await writeFile(log, 'old 1\nold 2\n');
    await follow();
    expect(inputs).to.deep.equal([{ reset: 'opened', file: log }]);
    await appendFile(log, 'new 1\n');
    await appendFile(log, 'new 2\n');
    await waitFor(() => lines().length === 2, 'two new lines');
    expect(inputs.slice(1)).to.deep.equal([
      { line: 'new 1', file: log },
      { line: 'new 2', file: log },
    ]);
  });

  it('holds a half-written line until its newline, and removes CRLF', async () => {
    await writeFile(log, '');
    await follow();
    await appendFile(log, 'half');
    await delay(120);
    expect(lines()).to.deep.equal([]);
    await appendFile(log, ' done\r\nwindows\r\n');
    await waitFor(() => lines().length === 2, 'the completed lines');
    expect(lines()).to.deep.equal(['half done', 'windows']);
  });

  it('starts over when the file is truncated', async () => {
    await writeFile(log, 'a long line from before the feed opened\n');
    await follow();
    await truncate(log, 0);
    await appendFile(log, 'after\n');
    await waitFor(() => lines().length === 1, 'the line after truncation');
    expect(resets()).to.deep.equal(['opened', 'truncated']);
    expect(lines()).to.deep.equal(['after']);
  });

  it('reads a rotated file from its start', async () => {
    await writeFile(log, 'first file\n');
    await follow();
    await appendFile(log, 'last of first\n');
    await waitFor(() => lines().length === 1, 'the last line of the first file');
    await rename(log, `${log}.1`);
    await writeFile(log, 'second file\n');
    await waitFor(() => lines().length === 2, 'the first line of the new file');
    expect(inputs).to.deep.equal([
      { reset: 'opened', file: log },
      { line: 'last of first', file: log },
      { reset: 'rotated', file: log },
      { line: 'second file', file: log },
    ]);
  });

  it('survives the file being deleted and created again', async () => {
    await writeFile(log, 'before\n');
    await follow();
    await unlink(log);
    await delay(120);
    await writeFile(log, 'again\n');
    await waitFor(() => lines().length === 1, 'the line of the recreated file');
    expect(resets()).to.deep.equal(['opened', 'rotated']);
    expect(lines()).to.deep.equal(['again']);
  });

  it('picks up a file created after the feed opened, from its start', async () => {
    await follow();
    expect(inputs).to.deep.equal([]);
    await writeFile(log, 'first line\n');
    await waitFor(() => lines().length === 1, 'the first line');
    expect(inputs).to.deep.equal([
      { reset: 'opened', file: log },
      { line: 'first line', file: log },
    ]);
  });

  it('moves to a newer candidate when one appears', async () => {
    const older = path.join(folder, 'older.log');
    await writeFile(older, 'old\n');
    await follow({ paths: [log, older] });
    await writeFile(log, 'newer\n');
    await waitFor(() => lines().length === 1, 'the line of the newer file');
    expect(inputs).to.deep.equal([
      { reset: 'opened', file: older },
      { reset: 'opened', file: log },
      { line: 'newer', file: log },
    ]);
  });

  it('decodes latin1', async () => {
    await writeFile(log, '');
    await follow({ encoding: 'latin1' });
    await appendFile(log, Buffer.from('Joueur tué: Élodie\n', 'latin1'));
    await waitFor(() => lines().length === 1, 'the latin1 line');
    expect(lines()).to.deep.equal(['Joueur tué: Élodie']);
  });
});
