import { expect } from 'chai';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isFeedEntry, isRecordingEntry, readTape, tapeFilesFolder, type Tape } from './tape-format.js';
import { TapeWriter } from './tape-writer.js';

const HEADER = JSON.stringify({ tape: 1, integration: 'sample', recordedAt: '2024-05-01T12:00:00.000Z' });
const push = (t: number, body: string) => JSON.stringify({ t, feed: 'push', kind: 'httpPush', method: 'POST', path: '/', body });

describe('tape format', () => {
  let folder: string;
  let file: string;

  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-tape-format-'));
    file = path.join(folder, 'sample.tape.jsonl');
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  async function read(text: string): Promise<Tape> {
    await writeFile(file, text);
    return readTape(file);
  }

  /** The message readTape rejects `text` with. */
  async function refusal(text: string): Promise<string> {
    try {
      await read(text);
    } catch (error) {
      expect(error).to.be.instanceOf(Error);
      return (error as Error).message;
    }
    throw new Error('readTape accepted the tape');
  }

  describe('readTape', () => {
    it('reads the header and every kind of entry, in order', async () => {
      const tape = await read(
        [
          HEADER,
          push(0, '{"a":1}'),
          JSON.stringify({ t: 250, recording: 'started' }),
          JSON.stringify({ t: 500, feed: 'api', kind: 'poll', status: 200, body: 'ok' }),
          JSON.stringify({ t: 500, feed: 'api', kind: 'poll', error: 'connect ECONNREFUSED 127.0.0.1:9' }),
          JSON.stringify({ t: 750, feed: 'log', kind: 'tail', reset: 'opened', file: '/games/x.log' }),
          JSON.stringify({ t: 800, feed: 'log', kind: 'tail', line: 'kill', file: '/games/x.log' }),
          JSON.stringify({ t: 900, feed: 'replays', kind: 'watchFolder', path: 'sub/m.rep', size: 3 }),
          JSON.stringify({ t: 1000, recording: 'stopped' }),
          '',
        ].join('\n'),
      );
      expect(tape.file).to.equal(file);
      expect(tape.header).to.deep.equal({ tape: 1, integration: 'sample', recordedAt: '2024-05-01T12:00:00.000Z' });
      expect(tape.entries).to.deep.equal([
        { t: 0, feed: 'push', kind: 'httpPush', input: { method: 'POST', path: '/', body: '{"a":1}' } },
        { t: 250, recording: 'started' },
        { t: 500, feed: 'api', kind: 'poll', input: { status: 200, body: 'ok' } },
        { t: 500, feed: 'api', kind: 'poll', input: { error: 'connect ECONNREFUSED 127.0.0.1:9' } },
        { t: 750, feed: 'log', kind: 'tail', input: { reset: 'opened', file: '/games/x.log' } },
        { t: 800, feed: 'log', kind: 'tail', input: { line: 'kill', file: '/games/x.log' } },
        {
          t: 900,
          feed: 'replays',
          kind: 'watchFolder',
          input: { path: 'sub/m.rep', size: 3, absolutePath: path.join(folder, 'sample.files', 'replays', 'sub', 'm.rep') },
        },
        { t: 1000, recording: 'stopped' },
      ]);
      expect(tape.entries.map(isFeedEntry)).to.deep.equal([true, false, true, true, true, true, true, false]);
    });

    it('accepts CRLF line endings and a trailing blank line', async () => {
      const tape = await read(`${HEADER}\r\n${push(0, 'a')}\r\n${push(1500, 'b')}\r\n\r\n`);
      expect(tape.header.integration).to.equal('sample');
      expect(tape.entries.map((entry) => [entry.t, isFeedEntry(entry) && (entry.input as { body: string }).body])).to.deep.equal([
        [0, 'a'],
        [1500, 'b'],
      ]);
    });

    it('accepts a header alone (a tape of a session where nothing arrived)', async () => {
      expect((await read(`${HEADER}\n`)).entries).to.deep.equal([]);
    });

    it('accepts a UTF-8 byte order mark an editor put in front of the header', async () => {
      expect((await read(`\uFEFF${HEADER}\n${push(0, 'a')}\n`)).entries).to.have.length(1);
    });

    it('refuses a line that is not JSON, with file:line', async () => {
      const message = await refusal(`${HEADER}\n${push(0, 'a')}\n{"t": 5, "feed": \n${push(9, 'b')}\n`);
      expect(message).to.match(new RegExp(`^${escape(file)}:3: not JSON \\(`));
    });

    it('refuses a header that is not JSON, with file:1', async () => {
      expect(await refusal('tape 1\n')).to.match(new RegExp(`^${escape(file)}:1: not JSON`));
    });

    it('refuses an empty file', async () => {
      expect(await refusal('\n\n')).to.equal(`${file}: empty tape`);
    });

    it('refuses a tape of another format version, saying which versions it reads', async () => {
      const message = await refusal(
        `${JSON.stringify({ tape: 2, integration: 'sample', recordedAt: '2024-05-01T12:00:00.000Z' })}\n${push(0, 'a')}\n`,
      );
      expect(message).to.equal(`${file}:1: bad tape header: tape version 2 is not supported (this Keyframe reads version 1)`);
    });

    it('refuses a header without an integration, or that is not a tape header at all', async () => {
      expect(await refusal(`${JSON.stringify({ tape: 1, recordedAt: '2024-05-01T12:00:00.000Z' })}\n`)).to.match(
        new RegExp(`^${escape(file)}:1: bad tape header: .*missing integration`),
      );
      expect(await refusal(`${JSON.stringify({ tape: 1, integration: '', recordedAt: '2024-05-01T12:00:00.000Z' })}\n`)).to.match(
        new RegExp(`^${escape(file)}:1: bad tape header: /integration`),
      );
      expect(await refusal(`${push(0, 'a')}\n`)).to.match(new RegExp(`^${escape(file)}:1: bad tape header: .*missing tape`));
      expect(await refusal('[1]\n')).to.match(new RegExp(`^${escape(file)}:1: bad tape header`));
    });

    it('refuses an entry of an unknown kind, naming the kinds it knows', async () => {
      const message = await refusal(`${HEADER}\n${push(0, 'a')}\n${JSON.stringify({ t: 5, feed: 'x', kind: 'serial', body: 'a' })}\n`);
      expect(message).to.equal(
        `${file}:3: bad tape entry: unknown feed kind "serial" (known: httpPush, poll, tail, watchFolder, screenText, tcp, webSocket, udp)`,
      );
    });

    it('refuses entries that are neither feed inputs nor recording events', async () => {
      expect(await refusal(`${HEADER}\n${JSON.stringify({ t: 0, feed: 'push' })}\n`)).to.match(
        new RegExp(`^${escape(file)}:2: bad tape entry: `),
      );
      expect(await refusal(`${HEADER}\n${JSON.stringify({ t: 0, recording: 'paused' })}\n`)).to.match(
        new RegExp(`^${escape(file)}:2: bad tape entry: `),
      );
      expect(
        await refusal(`${HEADER}\n${JSON.stringify({ feed: 'push', kind: 'httpPush', method: 'POST', path: '/', body: '' })}\n`),
      ).to.match(new RegExp(`^${escape(file)}:2: bad tape entry: .*missing t`));
      expect(await refusal(`${HEADER}\n${push(-1, 'a')}\n`)).to.match(new RegExp(`^${escape(file)}:2: bad tape entry: /t`));
      expect(await refusal(`${HEADER}\n"text"\n`)).to.equal(`${file}:2: bad tape entry: not a JSON object`);
    });

    it('refuses a feed entry that lacks the fields of its kind, with file:line', async () => {
      const entry = (fields: object) => `${HEADER}\n${JSON.stringify({ t: 0, feed: 'f', ...fields })}\n`;
      expect(await refusal(entry({ kind: 'httpPush', method: 'POST', path: '/' }))).to.equal(
        `${file}:2: bad tape entry: httpPush input: (root): missing body`,
      );
      expect(await refusal(entry({ kind: 'poll', status: 200 }))).to.match(new RegExp(`^${escape(file)}:2: bad tape entry: poll input: `));
      expect(await refusal(entry({ kind: 'tail', line: 'x' }))).to.match(new RegExp(`^${escape(file)}:2: bad tape entry: tail input: `));
      expect(await refusal(entry({ kind: 'watchFolder', size: 1 }))).to.equal(
        `${file}:2: bad tape entry: watchFolder input: (root): missing path`,
      );
    });

    it('reads the lines of the socket feeds (tcp, webSocket, udp) as their inputs, and refuses bad ones', async () => {
      const lines = [
        { t: 0, feed: 'console', kind: 'tcp', connection: 'opened' },
        { t: 10, feed: 'console', kind: 'tcp', line: 'Player killed Bot' },
        { t: 20, feed: 'console', kind: 'tcp', connection: 'closed', error: 'read ECONNRESET' },
        { t: 30, feed: 'events', kind: 'webSocket', message: '{"event":"kill"}' },
        { t: 40, feed: 'events', kind: 'webSocket', connection: 'closed' },
        { t: 50, feed: 'telemetry', kind: 'udp', message: 'AQID', from: '127.0.0.1:50123' },
        { t: 60, feed: 'telemetry', kind: 'udp', message: 'gear 4' },
      ];
      const tape = await read([HEADER, ...lines.map((line) => JSON.stringify(line))].join('\n'));
      expect(tape.entries).to.deep.equal(lines.map(({ t, feed, kind, ...input }) => ({ t, feed, kind, input })));

      const entry = (fields: object) => `${HEADER}\n${JSON.stringify({ t: 0, feed: 'f', ...fields })}\n`;
      for (const bad of [
        { kind: 'tcp', connection: 'lost' },
        { kind: 'tcp', message: 'a line is a line' },
        { kind: 'webSocket', line: 'x' },
        { kind: 'udp', message: 5 },
      ]) {
        expect(await refusal(entry(bad)), JSON.stringify(bad)).to.match(
          new RegExp(`^${escape(file)}:2: bad tape entry: ${bad.kind} input: `),
        );
      }
    });

    it("refuses a watchFolder entry whose file would lie outside the tape's files folder", async () => {
      for (const escaping of ['../../secret.txt', '/etc/passwd', 'a/../../b']) {
        const message = await refusal(`${HEADER}\n${JSON.stringify({ t: 0, feed: 'f', kind: 'watchFolder', path: escaping, size: 1 })}\n`);
        expect(message, escaping).to.equal(
          `${file}:2: bad tape entry: watchFolder path ${JSON.stringify(escaping)} is not inside the tape's files folder`,
        );
      }
    });

    it('reads a screenText entry as its frame beside the tape, and refuses a frame outside the files folder', async () => {
      const frame = JSON.stringify({ t: 250, feed: 'hud', kind: 'screenText', frame: '000000250.png', frameTimeMs: 250 });
      const tape = await read(`${HEADER}\n${frame}\n`);
      expect(tape.entries).to.deep.equal([
        {
          t: 250,
          feed: 'hud',
          kind: 'screenText',
          input: { frame: '000000250.png', frameTimeMs: 250, absolutePath: path.join(tapeFilesFolder(file, 'hud'), '000000250.png') },
        },
      ]);
      const escaping = JSON.stringify({ t: 0, feed: 'hud', kind: 'screenText', frame: '../other.files/hud/1.png', frameTimeMs: 0 });
      expect(await refusal(`${HEADER}\n${escaping}\n`)).to.equal(
        `${file}:2: bad tape entry: screenText frame "../other.files/hud/1.png" is not inside the tape's files folder`,
      );
      const textOnly = JSON.stringify({ t: 0, feed: 'hud', kind: 'screenText', text: 'GOAL', frameTimeMs: 0 });
      expect(await refusal(`${HEADER}\n${textOnly}\n`)).to.match(/:2: bad tape entry: screenText input: .*frame/);
    });

    it('refuses t going back in time, with the line it happens on', async () => {
      const message = await refusal(`${HEADER}\n${push(0, 'a')}\n${push(2000, 'b')}\n${push(1999, 'c')}\n`);
      expect(message).to.equal(`${file}:4: t goes back in time (1999 after 2000)`);
    });

    it('counts blank lines when it says where a problem is', async () => {
      const message = await refusal(`\n${HEADER}\n\n${push(2000, 'b')}\r\n\r\n${push(1000, 'c')}\n`);
      expect(message).to.equal(`${file}:6: t goes back in time (1000 after 2000)`);
      expect(await refusal(`${HEADER}\n\n\n{oops\n`)).to.match(new RegExp(`^${escape(file)}:4: not JSON`));
    });

    it('gives watched files an absolute path even for a tape named by a relative path', async () => {
      await writeFile(file, `${HEADER}\n${JSON.stringify({ t: 0, feed: 'replays', kind: 'watchFolder', path: 'm.rep', size: 1 })}\n`);
      const relative = path.relative(process.cwd(), file);
      const [entry] = (await readTape(relative)).entries;
      const input = (entry as { input: { absolutePath: string } }).input;
      expect(path.isAbsolute(input.absolutePath), input.absolutePath).to.equal(true);
      expect(input.absolutePath).to.equal(path.join(folder, 'sample.files', 'replays', 'm.rep'));
      expect(tapeFilesFolder(relative, 'replays')).to.equal(path.join(folder, 'sample.files', 'replays'));
    });
  });

  describe('TapeWriter', () => {
    const startedAt = new Date('2024-05-01T12:00:00.000Z');
    const at = (ms: number) => new Date(startedAt.getTime() + ms);
    const input = (body: string) => ({ method: 'POST', path: '/', body });

    it('writes a header readTape accepts, then one line per input', async () => {
      const writer = new TapeWriter(file, { integration: 'sample', description: 'unit test' }, startedAt);
      writer.write({ feed: 'push', kind: 'httpPush', input: input('a'), at: at(0) });
      writer.write({ feed: 'push', kind: 'httpPush', input: input('b'), at: at(1234) });
      expect(writer.count).to.equal(2);
      const tape = await readTape(file);
      expect(tape.header).to.deep.equal({ tape: 1, integration: 'sample', description: 'unit test', recordedAt: startedAt.toISOString() });
      expect(tape.entries).to.deep.equal([
        { t: 0, feed: 'push', kind: 'httpPush', input: input('a') },
        { t: 1234, feed: 'push', kind: 'httpPush', input: input('b') },
      ]);
    });

    it('never writes a t that goes back: an input handed over late keeps the t of the one before it', async () => {
      // Feed `slow` got an input at 100 ms that waited for its busy handler; feed `fast` handed one over at 300 ms meanwhile.
      const writer = new TapeWriter(file, { integration: 'sample' }, startedAt);
      writer.write({ feed: 'slow', kind: 'httpPush', input: input('1'), at: at(0) });
      writer.write({ feed: 'fast', kind: 'httpPush', input: input('2'), at: at(300) });
      writer.write({ feed: 'slow', kind: 'httpPush', input: input('3'), at: at(100) });
      writer.recording('started', at(200));
      writer.write({ feed: 'fast', kind: 'httpPush', input: input('4'), at: at(-50) });
      writer.write({ feed: 'fast', kind: 'httpPush', input: input('5'), at: at(400) });
      const tape = await readTape(file);
      expect(tape.entries.map((entry) => entry.t)).to.deep.equal([0, 300, 300, 300, 300, 400]);
      expect(
        tape.entries.map((entry) =>
          isFeedEntry(entry) ? (entry.input as { body: string }).body : isRecordingEntry(entry) && entry.recording,
        ),
      ).to.deep.equal(['1', '2', '3', 'started', '4', '5']);
    });

    it("does not keep a watched file's live path in the tape line", async () => {
      const source = path.join(folder, 'live', 'm.rep');
      await mkdir(path.dirname(source), { recursive: true });
      await writeFile(source, 'abc');
      const writer = new TapeWriter(file, { integration: 'sample' }, startedAt);
      writer.write({ feed: 'replays', kind: 'watchFolder', input: { path: 'm.rep', absolutePath: source, size: 3 }, at: at(10) });
      const lines = (await readFile(file, 'utf8')).trim().split('\n');
      expect(JSON.parse(lines[1]!)).to.deep.equal({ t: 10, feed: 'replays', kind: 'watchFolder', path: 'm.rep', size: 3 });
      expect(await readFile(path.join(folder, 'sample.files', 'replays', 'm.rep'), 'utf8')).to.equal('abc');
    });
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
