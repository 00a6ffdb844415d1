// Incremental State: a client that applies each patch to its copy holds, after every send, exactly the
// full State the service holds. Random sequences of library and recording changes, seeded.
import 'reflect-metadata';
import { expect } from 'chai';
import fastJsonPatch, { type Operation } from 'fast-json-patch';
import { mock } from 'node:test';
import type { ContentRecord, LibraryEvents } from '../library/content-library.js';
import { applyJsonPatch, type EventContent, type EventName, type JsonPatchOperation, type State } from '../protocol/index.js';
import type { EventSink, StateRevision } from '../protocol/event-sink.js';
import type { RecorderEvents } from '../recording/recorder-service.js';
import type { Recording, StartedRecording } from '../recording/recording.js';
import { TypedEvents } from '../support/typed-events.js';
import { diffState } from './state-diff.js';
import { STATE_BURST_MS, StatePublisher } from './state-publisher.js';

/**
 * A frontend that opted into patches, as the connection hub serves it. An independent RFC 6902 library
 * applies them to `copy`; Keyframe's own `applyJsonPatch` (what the UI uses) to `ownCopy`.
 */
class PatchingClient implements EventSink {
  readonly isConnected = true;
  copy: unknown;
  ownCopy: unknown;
  held: number | undefined;
  fullStates = 0;
  patchBytes: number[] = [];
  send<E extends EventName>(method: E, content: EventContent<E>): void {
    if (method === 'State') throw new Error('State goes through sendState');
  }
  sendState(state: State, { revision, since }: StateRevision): void {
    if (since && since.revision === this.held) {
      const patch = since.patch();
      this.patchBytes.push(JSON.stringify(patch).length);
      // Through JSON, as on the wire.
      this.copy = fastJsonPatch.applyPatch(this.copy, JSON.parse(JSON.stringify(patch)) as Operation[], true, false).newDocument;
      this.ownCopy = applyJsonPatch(this.ownCopy, JSON.parse(JSON.stringify(patch)) as JsonPatchOperation[]);
    } else {
      this.copy = JSON.parse(JSON.stringify(state));
      this.ownCopy = JSON.parse(JSON.stringify(state));
      this.fullStates++;
    }
    this.held = revision;
  }
}

/** mulberry32: the same sequence for the same seed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function record(index: number, createdAt: number): ContentRecord {
  return {
    id: index.toString(16).padStart(32, '0'),
    type: index % 3 === 0 ? 'Clip' : 'Session',
    title: '',
    game: `Game ${index % 5}`,
    bookmarks: [],
    fileName: `video-${index}`,
    filePath: `/videos/video-${index}.mp4`,
    durationSeconds: 60 + index,
    createdAt: new Date(createdAt),
    isImported: false,
    compressed: false,
  };
}

function startedRecording(): StartedRecording {
  const recording = {
    game: 'Arena',
    request: { game: 'Arena', exePath: 'C:\\Games\\arena.exe', pid: 7 },
    startedAt: new Date('2026-11-22T10:00:00Z'),
    contentFilePath: '/videos/Full Sessions/Arena/a.mp4',
    bookmarks: [],
    media: { audioTrackNames: ['Full Mix'] },
    settings: { frameRate: 60 },
    plan: { mode: 'Session' },
  };
  return recording as unknown as StartedRecording;
}

/** One random sequence: library and recording changes in bursts, the client checked after each send. */
function runSequence(seed: number, steps: number): PatchingClient {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(next() * items.length)];
  const client = new PatchingClient();
  const publisher = new StatePublisher(client);
  const library = new TypedEvents<LibraryEvents>();
  const recorder = new TypedEvents<RecorderEvents>();
  publisher.follow({ library: { events: library }, recorder: { events: recorder } });
  let records: ContentRecord[] = [];
  let created = 0;
  let recording: StartedRecording | undefined;
  let bookmarkId = 0;
  const publish = () =>
    library.emit(
      'changed',
      [...records].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()),
    );
  const replace = (old: ContentRecord, change: Partial<ContentRecord>) => {
    records = records.map((each) => (each === old ? { ...old, ...change } : each));
  };
  const operations: Array<() => void> = [
    () => {
      records.push(record(created, Date.UTC(2026, 0, 1) + Math.floor(next() * 1e9)));
      created++;
      publish();
    },
    () => {
      const item = pick(records);
      if (item) replace(item, { title: `Title ${Math.floor(next() * 100)}` });
      publish();
    },
    () => {
      const item = pick(records);
      records = records.filter((each) => each !== item);
      publish();
    },
    () => {
      const item = pick(records);
      if (item) replace(item, { bookmarks: [...item.bookmarks, { id: ++bookmarkId, type: 'Kill', seconds: Math.floor(next() * 60) }] });
      publish();
    },
    () => {
      const item = pick(records);
      if (item) replace(item, { bookmarks: item.bookmarks.filter(() => next() < 0.5) });
      publish();
    },
    () => {
      const item = pick(records);
      if (item) replace(item, { gameDatabaseId: item.gameDatabaseId === undefined ? 42 : undefined, audioTrackNames: ['Game', 'Mic'] });
      publish();
    },
    () => {
      if (recording) return;
      recording = startedRecording();
      recorder.emit('starting', recording as Recording);
      if (next() < 0.2) {
        recorder.emit('startFailed', recording as Recording);
        recording = undefined;
      } else recorder.emit('started', recording);
    },
    () => {
      if (recording) recorder.emit('bookmarkAdded', { recording, bookmark: { bookmark: bookmarkOf(++bookmarkId), seconds: 1 } });
    },
    () => {
      const id = pick(publisher.current.recording?.bookmarks ?? [])?.id;
      if (recording && id !== undefined) recorder.emit('bookmarkRemoved', { recording, id });
    },
    () => {
      if (!recording) return;
      recorder.emit('ending', { recording, endedAt: new Date('2026-11-22T10:01:30.5Z') });
      recorder.emit('stopped', { recording, item: undefined });
      recording = undefined;
    },
    () => publisher.update({ currentFolderSizeGb: Math.floor(next() * 4), recordingDriveFreeGb: next() < 0.5 ? null : 3 }),
  ];
  publisher.sendNow();
  for (let step = 0; step < steps; step++) {
    const burst = 1 + Math.floor(next() * 4);
    for (let index = 0; index < burst; index++) pick(operations)!();
    if (next() < 0.05) publisher.sendNow();
    else mock.timers.tick(STATE_BURST_MS);
    const full: unknown = JSON.parse(JSON.stringify(publisher.current));
    expect(client.copy, `seed ${seed}, step ${step}`).to.deep.equal(full);
    expect(client.ownCopy, `seed ${seed}, step ${step}, applyJsonPatch`).to.deep.equal(full);
  }
  publisher.dispose();
  return client;
}

const bookmarkOf = (id: number) => ({ id, type: 'Kill' as const, subtype: null, time: '00:00:01', aiRating: null });

describe('Incremental State', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'setImmediate', 'Date'] }));
  afterEach(() => mock.timers.reset());

  it('a copy patched after every send equals the full State, over 150 random sequences of library and recording changes', () => {
    let patches = 0;
    for (let seed = 1; seed <= 150; seed++) patches += runSequence(seed, 40).patchBytes.length;
    expect(patches, 'most sends are patches').to.be.above(150 * 40 * 0.8);
  });

  it('a rename among 5,000 items is one small operation, found without comparing the other items', () => {
    const client = new PatchingClient();
    const publisher = new StatePublisher(client);
    const library = new TypedEvents<LibraryEvents>();
    publisher.follow({ library: { events: library } });
    const records = Array.from({ length: 5000 }, (_, index) => record(index, Date.UTC(2026, 0, 1) - index * 60_000));
    library.emit('changed', records);
    publisher.sendNow();
    records[2500] = { ...records[2500]!, title: 'Renamed' };
    library.emit('changed', [...records]);
    const before = client.copy;
    const ownBefore = client.ownCopy as State;
    mock.timers.tick(STATE_BURST_MS);
    expect(client.copy).to.not.equal(before);
    const ownAfter = client.ownCopy as State;
    expect(ownAfter.content[2500]!.title).to.equal('Renamed');
    expect(ownAfter.content[2499], 'applyJsonPatch shares what the patch leaves alone').to.equal(ownBefore.content[2499]);
    expect(client.patchBytes).to.have.length(1);
    expect(client.patchBytes[0]).to.be.below(2048);
    expect(diffState(before, JSON.parse(JSON.stringify(publisher.current)))).to.deep.equal([
      { op: 'replace', path: '/content/2500/title', value: 'Renamed' },
    ]);
    publisher.dispose();
  });
});
