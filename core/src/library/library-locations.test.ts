import 'reflect-metadata';
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CAPTURE_CAPABILITIES } from '../media/capture-source.js';
import { EVENT_SINK } from '../protocol/event-sink.js';
import { CommandError } from '../protocol/refusal.js';
import { PickerUnavailableError } from '../platform/native-picker.js';
import { ContentLibrary } from './content-library.js';
import { FOLDER_PICKER, LibraryLocations, type FolderPicker } from './library-locations.js';
import { validFolder } from '../settings/valid-folder.js';
import { RECORDING_ACTIVITY } from '../settings/settings-service.js';
import { SettingsStore } from '../settings/settings-store.js';
import { StatePublisher } from '../state/state-publisher.js';
import { RecordedEvents, commandRejection } from '../testing/fixtures.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

describe('LibraryLocations', () => {
  let folder: string;
  let events: RecordedEvents;
  let store: SettingsStore;
  let state: StatePublisher;
  let library: ContentLibrary;
  let app: TestApp;
  let picked: Awaited<ReturnType<FolderPicker>> | Error;
  let recorder: { isRecording: boolean };
  let stopProjection: () => void;

  const locations = () => app.resolve(LibraryLocations);

  beforeEach(async () => {
    events = new RecordedEvents();
    recorder = { isRecording: false };
    const picker: FolderPicker = async () => {
      if (picked instanceof Error) throw picked;
      return picked;
    };
    const machine = { maxDisplayHeight: 1080, captureCapabilities: () => undefined };
    app = await createTestApp({
      settings: {},
      overrides: [
        [EVENT_SINK, events],
        [RECORDING_ACTIVITY, recorder],
        [CAPTURE_CAPABILITIES, machine],
        [FOLDER_PICKER, picker],
      ],
    });
    folder = app.dataFolder;
    store = app.resolve(SettingsStore);
    state = app.resolve(StatePublisher);
    library = app.resolve(ContentLibrary); // State follows the library from its creation, as in the app
    stopProjection = state.follow({ settings: store });
    await library.load();
    picked = undefined;
  });
  afterEach(async () => {
    stopProjection();
    await app.dispose();
  });

  it('takes absolute folder paths only, without ".."', () => {
    expect(validFolder('/tmp/videos/')).to.equal(path.resolve('/tmp/videos'));
    for (const bad of ['videos', './videos', '../videos', '/tmp/../etc', '/tmp/a/..', 'C:relative', '/tmp/\0x']) {
      expect(() => validFolder(bad), bad)
        .to.throw(CommandError)
        .with.property('code', 'InvalidParameters');
    }
  });

  it('uses the picked folder, creating it; a cancelled picker re-sends Settings unchanged', async () => {
    picked = path.join(folder, 'Picked', 'Videos');
    await locations().setVideoLocation();
    expect(existsSync(picked)).to.equal(true);
    expect(events.of('Settings').at(-1)!.contentFolder).to.equal(picked);

    picked = undefined;
    await locations().setVideoLocation();
    expect(events.of('Settings')).to.have.length(2);
    expect(events.of('Settings')[1]!.contentFolder).to.equal(path.join(folder, 'Picked', 'Videos'));
  });

  it('without a picker: ShowModal and Unavailable', async () => {
    picked = new PickerUnavailableError();
    const error = await commandRejection(locations().setCacheLocation());
    expect(error.code).to.equal('Unavailable');
    expect(events.of('ShowModal')[0]).to.deep.include({ title: 'No folder picker', type: 'error' });
    expect(events.of('Settings')).to.deep.equal([]);
  });

  it('refuses a system folder or a file as the content or cache folder, with a dialog that names it and why', async () => {
    const file = path.join(folder, 'notes.txt');
    await writeFile(file, 'notes');
    const before = { ...store.current };
    for (const requested of ['/', '/proc', '/dev/null', file]) {
      const video = await commandRejection(locations().setVideoLocation(requested), 'InvalidParameters');
      expect(video.message).to.include(requested);
      const cache = await commandRejection(locations().setCacheLocation(requested), 'InvalidParameters');
      expect(cache.message).to.include(requested);
    }
    expect(events.of('ShowModal').map((modal) => modal.title)).to.deep.equal(Array(8).fill('Folder not usable'));
    expect(store.current).to.deep.equal(before);
    expect(events.of('Settings')).to.deep.equal([]);
  });

  it('moves metadata, thumbnails and waveforms to the new cache folder and re-loads the library from there', async () => {
    const video = path.join(folder, 'Videos', 'Clips', 'Arena', 'clip.mp4');
    await mkdir(path.dirname(video), { recursive: true });
    await writeFile(video, Buffer.alloc(2048));
    const item = await library.add({ type: 'Clip', filePath: video, game: 'Arena', durationSeconds: 3 });
    const oldCache = store.current.cacheFolder;
    await mkdir(path.join(oldCache, 'thumbnails', 'Clips'), { recursive: true });
    await writeFile(path.join(oldCache, 'thumbnails', 'Clips', `${item.id}.jpeg`), 'jpeg');
    const target = path.join(folder, 'New Cache');

    await locations().setCacheLocation(target);
    expect(store.current.cacheFolder).to.equal(target);
    expect(await readdir(path.join(target, 'metadata', 'Clips'))).to.deep.equal([`${item.id}.json`]);
    expect(await readdir(path.join(target, 'thumbnails', 'Clips'))).to.deep.equal([`${item.id}.jpeg`]);
    expect(existsSync(path.join(oldCache, 'metadata'))).to.equal(false);
    expect(existsSync(path.join(oldCache, 'thumbnails'))).to.equal(false);
    expect(library.list().map((listed) => listed.id)).to.deep.equal([item.id]);
    expect(state.current.cacheFolder).to.equal(target.replaceAll('\\', '/'));
    expect(events.of('Settings').at(-1)!.cacheFolder).to.equal(target);
    expect((await commandRejection(locations().setCacheLocation(path.join(target, 'metadata', 'inside')))).code).to.equal(
      'InvalidParameters',
    );
  });

  it('moves the cache into a folder that already holds cache files without replacing any of them', async () => {
    const oldCache = store.current.cacheFolder;
    const target = path.join(folder, 'Shared Cache');
    for (const [cache, text] of [
      [oldCache, 'ours'],
      [target, 'theirs'],
    ] as const) {
      await mkdir(path.join(cache, 'thumbnails', 'Clips'), { recursive: true });
      await writeFile(path.join(cache, 'thumbnails', 'Clips', 'same.jpeg'), text);
    }
    await writeFile(path.join(oldCache, 'thumbnails', 'Clips', 'only-ours.jpeg'), 'ours');

    await locations().setCacheLocation(target);
    expect(await readFile(path.join(target, 'thumbnails', 'Clips', 'same.jpeg'), 'utf8')).to.equal('theirs');
    expect(await readFile(path.join(target, 'thumbnails', 'Clips', 'only-ours.jpeg'), 'utf8')).to.equal('ours');
    expect(await readFile(path.join(oldCache, 'thumbnails', 'Clips', 'same.jpeg'), 'utf8')).to.equal('ours');
    expect(existsSync(path.join(oldCache, 'thumbnails', 'Clips', 'only-ours.jpeg'))).to.equal(false);
  });

  it('refuses while recording', async () => {
    recorder.isRecording = true;
    expect((await commandRejection(locations().setVideoLocation(path.join(folder, 'x')))).code).to.equal('NotAllowed');
    expect((await commandRejection(locations().setCacheLocation(path.join(folder, 'y')))).code).to.equal('NotAllowed');
    expect(existsSync(path.join(folder, 'x'))).to.equal(false);
  });
});
