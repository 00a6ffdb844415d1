// State with 5,000 library items, two ways a user waits for it:
// - re-indexing the library at start (every sidecar read, checked, its video found) against reading
//   and parsing the same files bare;
// - one item renamed (its sidecar written, the change sent as a StatePatch to a client that asked for
//   Incremental State, as Keyframe's UI does) against serialising the full State alone.
import 'reflect-metadata';
import { ContentLibrary, EVENT_SINK, SettingsStore, STATE_BURST_MS, StatePublisher, type StateRevision } from '@keyframe/core/internal';
import { createTestApp } from '@keyframe/core/testing';
import type { EventContent, EventName, State } from '@keyframe/core/protocol';
import { createTempFolder } from '@keyframe/integration-testkit';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { measure, median, msSince, type Figure } from './harness.js';

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

export async function benchState(): Promise<Figure[]> {
  const temp = await createTempFolder('keyframe-state-bench-');
  try {
    const dataFolder = path.join(temp.path, 'data');
    await mkdir(dataFolder, { recursive: true });
    const sink = new SerialisingSink();
    const app = await createTestApp({ dataFolder, settings: {}, overrides: [[EVENT_SINK, sink]] });
    const settings = app.resolve(SettingsStore);
    const state = app.resolve(StatePublisher);
    const library = app.resolve(ContentLibrary);
    state.follow({ library });
    await library.load();
    const folder = path.join(settings.current.contentFolder, 'Full Sessions', 'Bench');
    await mkdir(folder, { recursive: true });
    for (let index = 0; index < ITEMS; index++) {
      const filePath = path.join(folder, `session-${index}.mp4`);
      await writeFile(filePath, '');
      await library.add({
        type: 'Session',
        filePath,
        game: 'Bench',
        durationSeconds: 1800,
        createdAt: new Date(Date.UTC(2026, 0, 1) + index * 60_000),
      });
    }
    const sidecars = path.join(settings.current.cacheFolder, 'metadata', 'Full Sessions');
    const reindex = await measure(() => library.load(), RUNS, 1);
    const bareRead = await measure(
      async () => {
        for (const name of await readdir(sidecars)) JSON.parse(await readFile(path.join(sidecars, name), 'utf8'));
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
    const rename = () =>
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
    const renamed = await measure(rename, RUNS * 3, 3, pastBurst);
    const serialised = await measure(
      async () => {
        JSON.stringify({ method: 'State', content: state.current });
      },
      RUNS * 3,
      3,
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
      },
      {
        name: `rename to State sent, ${ITEMS} items`,
        medianMs: renamed,
        baseline: 'JSON.stringify of that State',
        baselineMedianMs: serialised,
        ratio: renamed / serialised,
        runs: RUNS * 3,
        note: `includes the sidecar write and rebuilding the content list newest first; ${Math.max(...sentBytes)} bytes sent (StatePatch); ${median(stateShares).toFixed(2)} ms of it from the State's change to the patch sent`,
      },
    ];
  } finally {
    await temp.remove();
  }
}
