import 'reflect-metadata';
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CommandError } from '../commands/command-error.js';
import { PickerUnavailableError } from '../platform/native-picker.js';
import { ServiceOptions } from '../service-options.js';
import { Logger } from '../support/logger.js';
import { ContentLibrary } from './content-library.js';
import { LibraryLocations, type FolderPicker } from './library-locations.js';
import { validFolder } from './valid-folder.js';
import { Notifier } from './notifier.js';
import { SettingsService } from './settings-service.js';
import { SettingsStore } from './settings-store.js';
import { StateStore } from './state-store.js';
import { GIB, type StorageMonitor } from './storage-monitor.js';
import { StorageWarnings } from './storage-warnings.js';
import { RecordedEvents, commandRejection } from '../testing/fixtures.js';

describe('LibraryLocations', () => {
  let folder: string;
  let events: RecordedEvents;
  let store: SettingsStore;
  let state: StateStore;
  let library: ContentLibrary;
  let warnings: StorageWarnings;
  let picked: Awaited<ReturnType<FolderPicker>> | Error;

  const locations = () => {
    const logger = new Logger([]);
    const notifier = new Notifier(events, logger);
    const monitor = { get limitBytes() { return store.current.storageLimit * GIB; }, refreshSoon: () => undefined } as unknown as StorageMonitor;
    const picker: FolderPicker = async () => {
      if (picked instanceof Error) throw picked;
      return picked;
    };
    return new LibraryLocations(new SettingsService(store, state, notifier, events, logger), state, library, monitor, warnings, notifier, picker, logger);
  };

  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-locations-'));
    events = new RecordedEvents();
    const logger = new Logger([]);
    store = new SettingsStore(new ServiceOptions(folder, 0, undefined, [], path.join(folder, 'Videos')), logger);
    await store.load();
    state = new StateStore(events);
    library = new ContentLibrary(store, state, logger);
    await library.load();
    warnings = new StorageWarnings(events, logger);
    picked = undefined;
  });
  afterEach(async () => {
    state.dispose();
    await store.flush();
    await rm(folder, { recursive: true, force: true });
  });

  it('takes absolute folder paths only, without ".."', () => {
    expect(validFolder('/tmp/videos/')).to.equal(path.resolve('/tmp/videos'));
    for (const bad of ['videos', './videos', '../videos', '/tmp/../etc', '/tmp/a/..', 'C:relative', '/tmp/\0x']) {
      expect(() => validFolder(bad), bad).to.throw(CommandError).with.property('code', 'InvalidParameters');
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

  it('warns before a folder over the storage limit and applies it only when confirmed', async () => {
    store.replace({ ...store.current, storageLimit: 1 });
    const big = path.join(folder, 'Big');
    await mkdir(big);
    await writeFile(path.join(big, 'huge.mp4'), '');
    await truncate(path.join(big, 'huge.mp4'), 1.5 * GIB);
    const before = store.current.contentFolder;
    await locations().setVideoLocation(big);
    const warning = events.of('StorageWarning')[0]!;
    expect(warning).to.deep.include({ action: 'contentFolder', confirmText: 'Use Folder', actionData: { warningId: warning.warningId } });
    expect(warning.description).to.include('1.5 GB').and.include('1 GB');
    expect(store.current.contentFolder).to.equal(before);

    await warnings.answer({ warningId: warning.warningId, confirmed: false, action: 'contentFolder' });
    expect(events.of('Settings').at(-1)!.contentFolder).to.equal(before);
    await locations().setVideoLocation(big);
    const second = events.of('StorageWarning')[1]!;
    await warnings.answer({ warningId: second.warningId, confirmed: true, action: 'contentFolder' });
    expect(store.current.contentFolder).to.equal(big);
    expect(events.of('Settings').at(-1)!.contentFolder).to.equal(big);
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
    expect((await commandRejection(locations().setCacheLocation(path.join(target, 'metadata', 'inside')))).code).to.equal('InvalidParameters');
  });

  it('refuses while recording', async () => {
    state.update({ preRecording: { game: 'Arena', status: 'Waiting to start', coverImageId: null, pid: null, exe: null } });
    expect((await commandRejection(locations().setVideoLocation(path.join(folder, 'x')))).code).to.equal('NotAllowed');
    expect((await commandRejection(locations().setCacheLocation(path.join(folder, 'y')))).code).to.equal('NotAllowed');
    expect(existsSync(path.join(folder, 'x'))).to.equal(false);
  });
});
