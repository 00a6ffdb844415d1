import { expect } from 'chai';
import { PassThrough } from 'node:stream';
import { locateFfmpegTools } from './ffmpeg-toolbox.js';
import { FfmpegProcess } from './ffmpeg-process.js';
import { JpegFrameSplitter, jpegSize, RecordingFrames, type RecordingFrame } from './recording-frames.js';
import { framesOutputArgs } from './session-encoding.js';

const segment = (marker: number, payload: number[]) => [
  0xff,
  marker,
  ((payload.length + 2) >> 8) & 0xff,
  (payload.length + 2) & 0xff,
  ...payload,
];

/**
 * A structurally complete JPEG whose tables and comment contain `FF D9` and whose scan has stuffed
 * bytes and restart markers: a splitter that only looks for `FF D9` cuts it short.
 */
function trickyJpeg(seed: number, width = 480, height = 270): Buffer {
  return Buffer.from([
    0xff,
    0xd8,
    ...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x02, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]),
    ...segment(0xfe, [0x68, 0xff, 0xd9, 0x69, seed]), // a comment with an end-of-image code inside
    ...segment(0xdb, [0x00, ...Array.from({ length: 64 }, (_, index) => (index === 10 ? 0xff : index === 11 ? 0xd9 : index + 1))]),
    ...segment(0xc0, [0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x01, 0x01, 0x11, 0x00]),
    ...segment(0xda, [0x01, 0x01, 0x00, 0x00, 0x3f, 0x00]),
    0x12,
    0xff,
    0x00,
    0x34,
    seed,
    0xff,
    0xd0,
    0x56,
    0xff,
    0x00,
    0xff,
    0xd1,
    0x78,
    0xff,
    0xd9,
  ]);
}

describe('recording frames', function () {
  this.timeout(20000);

  it('splits concatenated JPEGs by their structure, whatever the chunk sizes', () => {
    const images = [trickyJpeg(1), trickyJpeg(2), trickyJpeg(3)];
    const stream = Buffer.concat([Buffer.from([0x00, 0xff, 0x13]), ...images]); // junk before the first image is skipped
    for (const chunkSize of [1, 2, 3, 7, 64, stream.length]) {
      const splitter = new JpegFrameSplitter();
      const frames: Buffer[] = [];
      for (let offset = 0; offset < stream.length; offset += chunkSize)
        frames.push(...splitter.push(stream.subarray(offset, offset + chunkSize)));
      expect(
        frames.map((frame) => frame.toString('hex')),
        `chunks of ${chunkSize}`,
      ).to.deep.equal(images.map((image) => image.toString('hex')));
    }
  });

  it('keeps an image that is not complete yet and resynchronises after a broken one', () => {
    const splitter = new JpegFrameSplitter();
    const image = trickyJpeg(9);
    expect(splitter.push(image.subarray(0, image.length - 1))).to.deep.equal([]);
    expect(splitter.push(image.subarray(image.length - 1))).to.have.length(1);
    // A start of image followed by something that is not a marker segment.
    const broken = Buffer.from([0xff, 0xd8, 0x00, 0x01, 0x02, 0x03, 0x04]);
    const frames = splitter.push(Buffer.concat([broken, image]));
    expect(frames.map((frame) => frame.toString('hex'))).to.deep.equal([image.toString('hex')]);
    expect(splitter.skipped).to.equal(1);
  });

  it('reads the size of a JPEG from its frame header', () => {
    expect(jpegSize(trickyJpeg(1, 480, 270))).to.deep.equal({ width: 480, height: 270 });
    expect(jpegSize(trickyJpeg(1, 1920, 1080))).to.deep.equal({ width: 1920, height: 1080 });
    expect(jpegSize(Buffer.from('not a jpeg'))).to.equal(undefined);
  });

  it('hands each frame to the listeners and keeps the newest', () => {
    const frames = new RecordingFrames();
    const stream = new PassThrough();
    const seen: RecordingFrame[] = [];
    frames.follow(stream);
    frames.onFrame((frame) => seen.push(frame));
    frames.onFrame(() => {
      throw new Error('a failing listener does not stop the others');
    });
    stream.write(Buffer.concat([trickyJpeg(1), trickyJpeg(2).subarray(0, 10)]));
    stream.write(trickyJpeg(2).subarray(10));
    expect(seen.map((frame) => frame.jpeg.toString('hex'))).to.deep.equal([trickyJpeg(1).toString('hex'), trickyJpeg(2).toString('hex')]);
    expect(seen[0]).to.deep.include({ width: 480, height: 270 });
    expect(frames.latest).to.equal(seen[1]);
    expect(frames.count).to.equal(2);
  });

  it('gets 480x270 JPEGs, 10 per second of video, from an ffmpeg output on pipe 3', async () => {
    const { ffmpeg } = locateFfmpegTools();
    const run = FfmpegProcess.start({
      ffmpegPath: ffmpeg.path,
      args: [
        '-f',
        'lavfi',
        '-i',
        'testsrc2=size=1280x720:rate=30:duration=2',
        ...framesOutputArgs('0:v', { pipe: 3, width: 480, height: 270, frameRate: 10 }),
      ],
      outputPipe: true,
    });
    const frames = new RecordingFrames();
    const received: Buffer[] = [];
    frames.onFrame((frame) => received.push(frame.jpeg));
    frames.follow(run.outputPipe!);
    expect((await run.exited).succeeded).to.equal(true);
    expect(received.length).to.be.within(19, 21);
    for (const jpeg of received) {
      expect(jpeg.toString('base64').startsWith('/9j/')).to.equal(true);
      expect(jpegSize(jpeg)).to.deep.equal({ width: 480, height: 270 });
      expect(jpeg.subarray(-2).toString('hex')).to.equal('ffd9');
    }
  });
});
