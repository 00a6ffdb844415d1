// State with 5,000 library items, two ways a user waits for it:
// - re-indexing the library at start (from the library index, checked against the metadata folders;
//   the videos are checked after) against reading and parsing the sidecars bare;
// - one item renamed (its sidecar written, the change sent as a StatePatch to a client that asked for
//   Incremental State, as Keyframe's UI does) against writing the same sidecar bare (atomic, synced).
import 'reflect-metadata';
import { ContentLibrary, EVENT_SINK, SettingsStore, STATE_BURST_MS, StatePublisher, type StateRevision } from '@keyframe/core/internal';
import { createTestApp } from '@keyframe/core/testing';
import type { EventContent, EventName, State } from '@keyframe/core/protocol';
import { createTempFolder } from '@keyframe/integration-testkit';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { measure, measureAgainst, median, msSince, type Figure } from './harness.js';
import { writeLibraryItems } from './library-fixture.js';

const ITEMS = 5000;
const RUNS = 9;

/** Serialises every event as the transport does for a `?state=patch` client and hands over the State frames. */
class SerialisingSink {
  readonly isConnected = true;
  onState: (frame: string) => void = () => undefined;
  send<E extends EventName>(method: E, content: EventContent<E>): void {
    const frame = JSON.stringify({ method, content });
    if (method === 'State') this.onState(frame);
  }
  sendState(state: State, { since }: StateRevision): void {
    const patch = since?.patch();
    this.onState(JSON.stringify(patch ? { method: 'StatePatch', content: { sequence: 1, patch } } : { method: 'State', content: state }));
  }
}

/** The index as a stop long after the last change leaves it: written, then taken again once the folders have settled. */
async function settleIndex(library: ContentLibrary): Promise<void> {
  await library.flush();
  await delay(2100);
  await library.flush();
}

export async function benchState(): Promise<Figure[]> {
  const temp = await createTempFolder('keyframe-state-bench-');
  try {
    const dataFolder = path.join(temp.path, 'data');
    await mkdir(dataFolder, { recursive: true });
    const sink = new SerialisingSink();
    const app = await createTestApp({ dataFolder, settings: {}, overrides: [[EVENT_SINK, sink]] });
    const settings = app.resolve(SettingsStore);
    const state = app.resolve(StatePublisher);
    const library = app.resolve(ContentLibrary); // State follows it from its creation, as in the service
    await library.load();
    await writeLibraryItems(settings.current, 0, ITEMS);
    const sidecars = path.join(settings.current.cacheFolder, 'metadata', 'Full Sessions');
    // An older version's folder, no index yet: every sidecar read (and the index written after).
    const withoutIndex = await measure(
      async () => {
        await rm(path.join(library.metadataFolder, 'library-index.json'), { force: true });
        await library.load();
      },
      3,
      1,
      () => library.videosChecked(),
    );
    await settleIndex(library);
    let videoCheckMs = 0;
    // In turn with the bare read, so both meet the machine in the same state.
    const { medianMs: reindex, baselineMedianMs: bareRead } = await measureAgainst(
      () => library.load(),
      async () => {
        for (const name of await readdir(sidecars)) JSON.parse(await readFile(path.join(sidecars, name), 'utf8'));
      },
      RUNS,
      1,
      async () => {
        const start = process.hrtime.bigint();
        await library.videosChecked();
        videoCheckMs = Math.max(videoCheckMs, msSince(start));
      },
    );
    // What trusting the index would cost if it checked every sidecar's own stamp (the choice in docs/protocol.md).
    const statEach = await measure(
      async () => {
        for (const name of await readdir(sidecars)) await stat(path.join(sidecars, name));
      },
      RUNS,
      1,
    );

    const item = library.list()[ITEMS / 2]!;
    let title = 0;
    const sentBytes: number[] = [];
    // From the State's change (the sidecar written, the list rebuilt) to the patch sent: the State's own share.
    const stateShares: number[] = [];
    let changedAt = 0n;
    state.onChange(() => (changedAt = process.hrtime.bigint()));
    const renameOnce = () =>
      new Promise<void>((resolve, reject) => {
        sink.onState = (frame) => {
          stateShares.push(msSince(changedAt));
          sentBytes.push(Buffer.byteLength(frame));
          resolve();
        };
        library.update(item.id, { title: `Round ${++title}` }).catch(reject);
      });
    // A user's rename comes alone: past the burst window of the previous State, so it is sent at once.
    const pastBurst = () => new Promise<void>((resolve) => setTimeout(resolve, STATE_BURST_MS + 5));
    // What keeping the rename on disk costs by itself: the same sidecar written atomically and synced, bare.
    // In turn with the rename and after the same pause: a first fsync after a pause also pays for what other
    // processes left in the file system's journal.
    const sidecarBytes = await readFile(path.join(sidecars, `${item.id}.json`));
    const bareTemporary = path.join(temp.path, 'bare-sidecar.json');
    const { medianMs: renamed, baselineMedianMs: bareWrite } = await measureAgainst(
      renameOnce,
      async () => {
        const handle = await open(`${bareTemporary}.tmp`, 'w');
        await handle.writeFile(sidecarBytes);
        await handle.sync();
        await handle.close();
        await rename(`${bareTemporary}.tmp`, bareTemporary);
      },
      RUNS * 3,
      3,
      pastBurst,
    );
    await app.dispose();
    return [
      {
        name: `re-index at start, ${ITEMS} items`,
        medianMs: reindex,
        baseline: 'read + JSON.parse the same sidecars',
        baselineMedianMs: bareRead,
        ratio: reindex / bareRead,
        runs: RUNS,
        note:
          `from the library index (docs/protocol.md, "Library index"); the videos are checked after the first State ` +
          `(the check took up to ${videoCheckMs.toFixed(0)} ms more); without an index (an older version's folder) ${withoutIndex.toFixed(0)} ms; ` +
          `a stat of every sidecar would add ${statEach.toFixed(0)} ms`,
      },
      {
        name: `rename to State sent, ${ITEMS} items`,
        medianMs: renamed,
        baseline: 'bare atomic write + fsync of the same sidecar',
        baselineMedianMs: bareWrite,
        ratio: renamed / bareWrite,
        runs: RUNS * 3,
        note: `includes the sidecar's atomic write (file and folder synced) and the content list kept newest first; ${Math.max(...sentBytes)} bytes sent (StatePatch); ${median(stateShares).toFixed(2)} ms of it from the State's change to the patch sent`,
      },
    ];
  } finally {
    await temp.remove();
  }
}
