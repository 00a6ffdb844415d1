import { expect } from 'chai';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { locateFfmpegTools } from './ffmpeg-toolbox.js';
import { FfmpegProcess } from './ffmpeg-process.js';
import { jpegSize } from './recording-frames.js';
import { createThumbnail, thumbnailPath } from './thumbnail.js';

describe('thumbnail', function () {
  this.timeout(20000);
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-thumbnail-'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  it('is a 720 px wide JPEG of the middle frame, in the type folder of the cache', async () => {
    const { ffmpeg } = locateFfmpegTools();
    const video = path.join(folder, 'video.mp4');
    const make = FfmpegProcess.start({
      ffmpegPath: ffmpeg.path,
      args: ['-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30:duration=2', '-c:v', 'libx264', '-y', video],
    });
    expect((await make.exited).succeeded).to.equal(true);

    const target = thumbnailPath(folder, 'Full Sessions', '0123');
    expect(target).to.equal(path.join(folder, 'thumbnails', 'Full Sessions', '0123.jpeg'));
    await createThumbnail({ ffmpegPath: ffmpeg.path, video, target, durationSeconds: 2 });
    expect(jpegSize(await readFile(target))).to.deep.equal({ width: 720, height: 406 });

    // A length past the end (a wrong probe) still gives a picture: the first frame.
    const fallback = path.join(folder, 'fallback.jpeg');
    await createThumbnail({ ffmpegPath: ffmpeg.path, video, target: fallback, durationSeconds: 60 });
    expect(jpegSize(await readFile(fallback))?.width).to.equal(720);

    try {
      await createThumbnail({
        ffmpegPath: ffmpeg.path,
        video: path.join(folder, 'missing.mp4'),
        target: path.join(folder, 'none.jpeg'),
        durationSeconds: 2,
      });
      expect.fail('a missing video has no thumbnail');
    } catch (error) {
      expect((error as Error).message).to.match(/No thumbnail for/);
    }
    expect((await readdir(folder)).sort()).to.deep.equal(['fallback.jpeg', 'thumbnails', 'video.mp4']);
  });
});
