import 'reflect-metadata';
import { expect } from 'chai';
import { access, mkdir, readdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FfmpegTools } from '../media/ffmpeg-toolbox.js';
import { thumbnailPath } from '../media/thumbnail.js';
import { waveformPath } from '../media/waveform.js';
import { TYPE_FOLDERS } from '../protocol/index.js';
import type { ContentBookmark } from './content-item.js';
import { createMediaWorld, generateVideo, type MediaWorld } from '../testing/fixtures.js';
import type { ContentLibrary, ContentRecord } from './content-library.js';
import { ContentIngest, UnreadableVideo } from './content-ingest.js';

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );
const bookmark = (id: number, seconds: number): ContentBookmark => ({ id, type: 'Kill', seconds });

describe('ContentIngest', function () {
  this.timeout(60000);
  let world: MediaWorld;
  let library: ContentLibrary;
  let ingest: ContentIngest;
  let tools: FfmpegTools;
  let folder: string;
  let cacheFolder: string;
  let count = 0;

  before(async () => {
    world = await createMediaWorld('keyframe-ingest-');
    ({ library, ingest } = world);
    tools = world.toolbox.requireFfmpeg('Testing');
    folder = path.join(world.folder, 'made');
    await mkdir(folder, { recursive: true });
    cacheFolder = world.settings.current.cacheFolder;
  });
  after(() => world.dispose());

  /** A 2 s video with one track, new each time. */
  const video = async (seconds = 2) => {
    const file = path.join(folder, `video ${++count}.mp4`);
    await generateVideo(tools.ffmpeg.path, file, { seconds });
    return file;
  };
  const itemsAt = (file: string) => library.list().filter((item) => path.resolve(item.filePath) === path.resolve(file));
  const artworkOf = (item: ContentRecord) => [
    thumbnailPath(cacheFolder, TYPE_FOLDERS[item.type], item.id),
    waveformPath(cacheFolder, TYPE_FOLDERS[item.type], item.id),
  ];
  const pendingThumbnails = async () => readdir(path.join(cacheFolder, 'thumbnails', 'pending')).catch(() => []);

  it('adds a job output once, with the probed duration, its artwork and its bookmarks', async () => {
    const file = await video(3);
    const item = await ingest.add({
      file,
      type: 'Highlight',
      ownsFile: true,
      meta: { game: 'Arena', bookmarks: [bookmark(1, 1)] },
      tools,
    });
    expect(itemsAt(file)).to.deep.equal([item]);
    expect(item.durationSeconds).to.be.within(2, 3.5);
    expect(item.bookmarks.map((entry) => entry.id)).to.deep.equal([1]);
    for (const artwork of artworkOf(item)) expect(await exists(artwork), artwork).to.equal(true);
  });

  it('moves a finished recording into place next to, never over, a file of the same name, keeping bookmarks that arrive meanwhile', async () => {
    const target = library.contentPath('Session', 'Arena', 'recorded.mp4');
    const taken = await video();
    await mkdir(path.dirname(target), { recursive: true });
    await rename(taken, target);
    const live = [bookmark(1, 0.5)];
    const file = await video();
    const adding = ingest.add({ file, moveTo: target, type: 'Session', liveBookmarks: () => [...live], meta: { game: 'Arena' }, tools });
    live.push(bookmark(2, 1));
    const item = await adding;
    expect(path.basename(item.filePath)).to.equal('recorded (1).mp4');
    expect(await exists(file)).to.equal(false);
    expect(await exists(target)).to.equal(true);
    expect(library.get(item.id)!.bookmarks.map((entry) => entry.id)).to.deep.equal([1, 2]);
  });

  it('uses artwork made ahead (a saved replay) and removes it when the video turns out unreadable', async () => {
    const file = await video();
    const early = ingest.prepareArtwork({ picture: { video: file }, sound: { video: file, audioStreams: 1 } }, tools);
    const item = await ingest.add({ file, type: 'Buffer', ownsFile: true, artwork: early, meta: { game: 'Arena' }, tools });
    for (const artwork of artworkOf(item)) expect(await exists(artwork), artwork).to.equal(true);

    const broken = path.join(folder, 'broken replay.mp4');
    await writeFile(broken, 'not a video');
    const before = library.list().length;
    const failed = ingest.add({
      file: broken,
      type: 'Buffer',
      ownsFile: true,
      artwork: ingest.prepareArtwork({ picture: { video: file }, sound: { video: file, audioStreams: 1 } }, tools),
      meta: { game: 'Arena' },
      tools,
    });
    expect(await failed.catch((error: unknown) => error)).to.be.instanceOf(UnreadableVideo);
    expect(library.list()).to.have.length(before);
    expect(await exists(broken)).to.equal(false);
    expect(await pendingThumbnails()).to.deep.equal([]);
  });

  it("leaves an unreadable file of the user's where it is, unmoved, and adds nothing", async () => {
    const broken = path.join(folder, 'interrupted.mp4');
    await writeFile(broken, 'not a video');
    const target = library.contentPath('Session', 'Arena', 'interrupted.mp4');
    const before = library.list().length;
    const error = await ingest
      .add({ file: broken, moveTo: target, type: 'Session', meta: { game: 'Arena' }, tools })
      .catch((reason: unknown) => reason);
    expect(error)
      .to.be.instanceOf(UnreadableVideo)
      .and.have.property('message')
      .that.matches(/interrupted\.mp4 cannot be read/);
    expect(library.list()).to.have.length(before);
    expect(await exists(broken)).to.equal(true);
    expect(await exists(target)).to.equal(false);
  });

  it('lists a clip before its artwork; requests for the artwork wait until it is placed', async () => {
    const file = await video();
    const { item, artworkMade } = await ingest.addListedFirst({
      file,
      type: 'Clip',
      ownsFile: true,
      meta: { game: 'Arena', durationSeconds: 2 },
      tools,
    });
    expect(itemsAt(file)).to.deep.equal([item]);
    expect(item.durationSeconds).to.equal(2);
    const [thumbnail] = artworkOf(item);
    await ingest.whenMade(thumbnail!);
    expect(await exists(thumbnail!)).to.equal(true);
    await artworkMade;
    for (const artwork of artworkOf(item)) expect(await exists(artwork), artwork).to.equal(true);
  });
});
