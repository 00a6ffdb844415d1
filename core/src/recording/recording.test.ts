import 'reflect-metadata';
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { CaptureSource } from '../media/capture-source.js';
import type { RecordingMode } from '../protocol/index.js';
import { effectiveRecordingSettings } from '../settings/effective-settings.js';
import { TypedEvents } from '../support/typed-events.js';
import { createMediaWorld, FixedSources, type MediaWorld } from '../testing/fixtures.js';
import { Preview } from './preview.js';
import type { RecorderEvents } from './recorder-service.js';
import { Recording, type LaunchParts } from './recording.js';

describe('Recording', function () {
  this.timeout(30000);
  let world: MediaWorld;
  let events: TypedEvents<RecorderEvents>;

  const recording = (mode: RecordingMode) => {
    const settings = effectiveRecordingSettings({ ...world.settings.current, recordingMode: mode });
    const plan = { mode, bufferSeconds: 4, bufferMaxMegabytes: 100 };
    return new Recording('Arena', { game: 'Arena' }, settings, plan, new Preview(world.events, world.logger), events, world.logger);
  };
  const parts = (source?: CaptureSource): LaunchParts => ({
    toolbox: world.toolbox,
    captures: new FixedSources(source),
    maxDisplayHeight: 1080,
    contentPath: (fileName) => world.library.contentPath('Session', 'Arena', fileName),
    screenFramesWanted: () => false,
  });

  beforeEach(async () => {
    world = await createMediaWorld('keyframe-recording-', { resolution: '720p', frameRate: 30, crfValue: 30 });
    events = new TypedEvents<RecorderEvents>();
  });
  afterEach(() => world.dispose());

  it('goes Starting → Running → Finishing, takes bookmarks from its first frame until it is closed', async () => {
    const added: number[] = [];
    events.on('bookmarkAdded', ({ bookmark }) => added.push(bookmark.seconds));
    const session = recording('Hybrid');
    const bookmark = { id: 1, type: 'Kill' as const, subtype: null, time: '00:00:01', aiRating: null };
    expect(session.status).to.equal('starting');
    expect(session.isStarted()).to.equal(false);
    expect(session.addBookmark(bookmark, 1), 'before the first frame').to.equal(false);

    const before = Date.now();
    await session.start(parts());
    expect(session.status).to.equal('running');
    expect(session.isStarted()).to.equal(true);
    expect(session.startedAt!.getTime()).to.be.within(before, Date.now());
    expect(session.buffer).to.not.equal(undefined);
    expect(session.addBookmark(bookmark, 1)).to.equal(true);
    expect(session.addBookmark({ ...bookmark, id: 2 }, 2)).to.equal(true);
    expect(session.removeBookmark(2)).to.equal(true);
    expect(session.removeBookmark(2), 'already removed').to.equal(false);
    expect(session.bookmarks.map((entry) => entry.bookmark.id)).to.deep.equal([1]);
    expect(added).to.deep.equal([1, 2]);

    const exit = await session.finish();
    expect(exit.stopRequested).to.equal(true);
    expect(session.status).to.equal('finishing');
    expect(session.addBookmark({ ...bookmark, id: 3 }, 3), 'while its metadata is written').to.equal(true);
    await session.close();
    expect(session.addBookmark({ ...bookmark, id: 4 }, 4), 'once saved').to.equal(false);
    expect(existsSync(session.buffer!.folder)).to.equal(false);
  });

  it('is writing its cache file and the content file it will become, and nothing else', async () => {
    const session = recording('Session');
    await session.start(parts());
    const { cacheFile, contentFilePath } = session;
    expect(cacheFile).to.be.a('string');
    expect(existsSync(cacheFile!)).to.equal(true);
    expect(session.isWriting(cacheFile!)).to.equal(true);
    expect(session.isWriting(contentFilePath!)).to.equal(true);
    expect(session.isWriting(path.join(path.dirname(contentFilePath!), 'other.mp4'))).to.equal(false);
    expect(session.buffer, 'Session mode keeps no replay buffer').to.equal(undefined);
    await session.finish();
    await session.close();
  });

  it('writes no session file in Buffer mode, so it is writing no library file', async () => {
    const session = recording('Buffer');
    await session.start(parts());
    expect(session.cacheFile).to.equal(undefined);
    expect(session.contentFilePath).to.equal(undefined);
    expect(session.isWriting(world.library.contentPath('Session', 'Arena', 'x.mp4'))).to.equal(false);
    await session.finish();
    await session.close();
  });

  it('removes what it created when ffmpeg cannot start, and stays Starting', async () => {
    const broken: CaptureSource = {
      name: 'broken',
      inputs: () => ({ args: ['-f', 'lavfi', '-i', 'nosuchfilter'], video: '0:v', audioTracks: [] }),
    };
    const session = recording('Hybrid');
    let failure: unknown;
    await session.start(parts(broken)).catch((error: unknown) => {
      failure = error;
    });
    expect(failure).to.be.instanceOf(Error);
    expect(session.status).to.equal('starting');
    expect(session.isStarted()).to.equal(false);
    expect(existsSync(session.cacheFile!)).to.equal(false);
    expect(existsSync(session.buffer!.folder)).to.equal(false);
  });
});
