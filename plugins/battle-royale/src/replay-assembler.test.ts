import { expect } from 'chai';
import { ReplayAssembler } from './replay-assembler.js';
import { replayFileOf, type ReplayFile } from './replay-layout.js';
import { kill, knock, replayFiles, type GeneratedReplay } from './test-support/replay-generator.js';

const MATCH_START = new Date('2026-11-24T19:01:00.000Z');
const REPLAY: GeneratedReplay = {
  folder: 'match.one',
  matchStartedAt: MATCH_START,
  player: '[KFR]Hunter',
  events: [knock(120_000, 'Hunter', 'Victim'), kill(125_000, 'Hunter', 'Victim', true), knock(600_250, 'Enemy', '[KFR]hunter')],
};
const at = (offsetMs: number) => new Date(MATCH_START.getTime() + offsetMs);

/** The files of the replay the assembler reads, in the order given, with what each gave. */
function feed(assembler: ReplayAssembler, files: { path: string; bytes: Buffer }[]) {
  return files.flatMap((file) => {
    const replayFile = replayFileOf(file.path);
    return replayFile && assembler.claim(file.path) ? [assembler.accept(replayFile, file.bytes)] : [];
  });
}

describe('ReplayAssembler', () => {
  it('gives the bookmarks at match start + offset, holding events that come before the info file', () => {
    const results = feed(new ReplayAssembler(), replayFiles(REPLAY));
    expect(results.flatMap((result) => result.bookmarks)).to.deep.equal([
      { type: 'Kill', at: at(120_000), file: 'match.one/events/DBNO0' },
      { type: 'Death', at: at(600_250), file: 'match.one/events/DBNO1' },
    ]);
    expect(results.at(-1)!.info).to.deep.equal({ matchStartedAt: MATCH_START, player: 'hunter' });
  });

  it('gives each event as it comes once the info file is known', () => {
    const files = replayFiles(REPLAY);
    const results = feed(new ReplayAssembler(), [files.at(-1)!, ...files.slice(0, -1)]);
    expect(results.map((result) => result.bookmarks.map((bookmark) => bookmark.type))).to.deep.equal([[], ['Kill'], [], ['Death']]);
  });

  it('reads each file once', () => {
    const assembler = new ReplayAssembler();
    const files = replayFiles(REPLAY);
    expect(feed(assembler, files).flatMap((result) => result.bookmarks)).to.have.length(2);
    expect(feed(assembler, files)).to.deep.equal([]);
  });

  it('skips a replay whose info file is unreadable, with the reason, and everything of it', () => {
    const assembler = new ReplayAssembler();
    const [knock, finish, death, info] = replayFiles(REPLAY).filter((file) => replayFileOf(file.path));
    const results = feed(assembler, [knock!, { ...info!, bytes: info!.bytes.subarray(0, 40) }, finish!, death!]);
    expect(results.flatMap((result) => result.bookmarks)).to.deep.equal([]);
    expect(results.flatMap((result) => result.problems)).to.deep.equal([
      'Skipped the replay match.one: match.one/PUBG.replayinfo is unreadable (it holds no complete JSON object)',
    ]);
  });

  it('skips an unreadable event file with the reason and keeps the rest of the replay', () => {
    const assembler = new ReplayAssembler();
    const files = replayFiles(REPLAY).map((file) => (file.path.endsWith('DBNO0') ? { ...file, bytes: Buffer.from('garbage') } : file));
    const results = feed(assembler, files);
    expect(results.flatMap((result) => result.bookmarks.map((bookmark) => bookmark.type))).to.deep.equal(['Death']);
    expect(results.flatMap((result) => result.problems)).to.deep.equal([
      'Skipped the event match.one/events/DBNO0: it holds no complete JSON object',
    ]);
  });

  it('keeps replays apart', () => {
    const assembler = new ReplayAssembler();
    const other: GeneratedReplay = { ...REPLAY, folder: 'match.two', player: 'Enemy', matchStartedAt: at(3_600_000) };
    const bookmarks = feed(assembler, [...replayFiles(REPLAY), ...replayFiles(other)]).flatMap((result) => result.bookmarks);
    expect(bookmarks.map((bookmark) => `${bookmark.type} ${bookmark.file}`)).to.deep.equal([
      'Kill match.one/events/DBNO0',
      'Death match.one/events/DBNO1',
      'Kill match.two/events/DBNO1',
    ]);
  });

  it('refuses a second claim of a path while its first read is under way, until it is given back', () => {
    const assembler = new ReplayAssembler();
    const file: ReplayFile = { replay: 'match.one', kind: 'info', path: 'match.one/PUBG.replayinfo' };
    expect(assembler.claim(file.path)).to.equal(true);
    expect(assembler.claim(file.path)).to.equal(false);
    assembler.release(file.path);
    expect(assembler.claim(file.path)).to.equal(true);
  });
});
