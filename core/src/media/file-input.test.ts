import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { compressionArgs } from '../jobs/compression/compression-service.js';
import { highlightArgs } from '../jobs/highlight/highlight-service.js';
import { generateVideo } from '../testing/fixtures.js';
import { copyArgs, encodeArgs, headArgs, joinArgs, type ClipPiece, type ClipQuality } from './clip-encoding.js';
import { locateFfmpegTools } from './ffmpeg-toolbox.js';
import { fileInput } from './file-input.js';
import { runFfmpegFrame } from './frame-grab.js';
import { measureLoudness } from './loudness.js';
import { probeMedia } from './probe.js';
import { createThumbnail } from './thumbnail.js';
import { X264_PROFILE } from './video-encoder.js';
import { computeWaveform } from './waveform.js';

/** The arguments between the previous input (or the start) and each `-i`: the options of that input. */
function optionsOfEachInput(args: readonly string[]): { input: string; options: string[] }[] {
  const inputs: { input: string; options: string[] }[] = [];
  let from = 0;
  args.forEach((arg, index) => {
    if (arg !== '-i') return;
    inputs.push({ input: args[index + 1]!, options: args.slice(from, index) });
    from = index + 2;
  });
  return inputs;
}

function expectLocalOnly(args: readonly string[]): void {
  const inputs = optionsOfEachInput(args);
  expect(inputs).to.not.be.empty;
  for (const { input, options } of inputs) {
    const protocols = options[options.indexOf('-protocol_whitelist') + 1];
    expect(options, input).to.include('-protocol_whitelist');
    expect(protocols, input).to.equal(input.startsWith('concat:') ? 'concat,file,pipe' : 'file,pipe');
    expect(options, input).to.include('-format_whitelist');
    expect(options[options.indexOf('-format_whitelist') + 1]!.split(','), input).to.not.include.members(['hls', 'image2']);
  }
}

describe('file inputs', () => {
  const quality: ClipQuality = {
    clipEncoder: 'cpu',
    clipCodec: 'h264',
    clipQualityCpu: 28,
    clipQualityGpu: 28,
    clipFps: 30,
    clipAudioQuality: '96k',
    clipPreset: 'ultrafast',
  };
  const source = {
    path: '/videos/a.mp4',
    durationSeconds: 10,
    videoCodec: 'h264',
    width: 1280,
    height: 720,
    frameRate: 30,
    audioTracks: [{ codec: 'aac' }],
  };
  const piece: ClipPiece = { source, startSeconds: 1, endSeconds: 4, mutedAudioTracks: [], audioTrackVolumes: {} };
  const probed = {
    durationSeconds: 10,
    formatName: 'mov',
    sizeBytes: 1000,
    streams: [
      { index: 0, type: 'video', codec: 'h264' },
      { index: 1, type: 'audio', codec: 'aac' },
    ],
  };

  it('only lets ffmpeg read local files and pipes, through a media container, before every -i of a user file', () => {
    expect(fileInput('/videos/a.mp4')).to.deep.equal([
      '-protocol_whitelist',
      'file,pipe',
      '-format_whitelist',
      'mov,matroska,mpegts,avi,flv,asf,mpeg,ogg,wav',
      '-i',
      '/videos/a.mp4',
    ]);
    expect(fileInput('/work/list.ffconcat', 'concat')).to.deep.equal([
      '-protocol_whitelist',
      'file,pipe',
      '-format_whitelist',
      'concat,mov,matroska,mpegts,avi,flv,asf,mpeg,ogg,wav',
      '-f',
      'concat',
      '-i',
      '/work/list.ffconcat',
    ]);
    // A saved replay's sound: MPEG-TS segments joined by the concat protocol, which must be allowed too.
    expect(fileInput('concat:/buffer/1.ts|/buffer/2.ts').slice(0, 2)).to.deep.equal(['-protocol_whitelist', 'concat,file,pipe']);
    const builders: [string, string[]][] = [
      [
        'encodeArgs',
        encodeArgs([piece, { ...piece, source: { ...source, path: '/videos/b.mkv' } }], {
          quality,
          encoder: X264_PROFILE,
          target: '/out/c.mp4',
          keepSeparateTracks: false,
        }),
      ],
      ['headArgs', headArgs(piece, 2, { quality, encoder: X264_PROFILE, target: '/out/head.ts', keepSeparateTracks: false })],
      ['copyArgs', copyArgs(source.path, 2, 4, '/out/rest.ts', { format: 'mpegts', keepSeparateTracks: false, audioTracks: 1 })],
      ['joinArgs', joinArgs('/work/list.ffconcat', '/out/c.mp4', [])],
      ['compressionArgs', compressionArgs(source.path, '/out/small.mp4', probed, ['-c:v', 'libx264'])],
      ['highlightArgs', highlightArgs(source.path, '/out/h.mp4', [{ start: 1, end: 3, moments: [2] }], probed, quality)],
    ];
    for (const [name, args] of builders) {
      expect(optionsOfEachInput(args).length, name).to.be.greaterThan(0);
      expectLocalOnly(args);
    }
    expect(joinArgs('/work/list.ffconcat', '/out/c.mp4', [])).to.include.ordered.members(['-safe', '0', '-protocol_whitelist']);
  });

  describe('with ffmpeg', function () {
    this.timeout(30000);
    let folder: string;
    let server: Server;
    let requests: string[];
    beforeEach(async () => {
      folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-file-input-'));
      requests = [];
      server = createServer((request, response) => {
        requests.push(request.url ?? '');
        response.writeHead(404).end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });
    afterEach(async () => {
      await new Promise((resolve) => server.close(resolve));
      await rm(folder, { recursive: true, force: true });
    });

    it('reads nothing a playlist posing as a video names: no other file, no URL', async () => {
      const { ffmpeg, ffprobe } = locateFfmpegTools();
      const elsewhere = path.join(folder, 'elsewhere', 'private.mp4');
      await mkdir(path.dirname(elsewhere));
      await generateVideo(ffmpeg.path, elsewhere, { seconds: 1, width: 320, height: 240, frameRate: 30, tones: [440] });
      const port = (server.address() as AddressInfo).port;
      const posing = path.join(folder, 'posing.mp4');
      // An HLS playlist under a video's name: its segments are a file outside and a local server.
      await writeFile(
        posing,
        `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:1,\n${elsewhere}\n#EXTINF:1,\nhttp://127.0.0.1:${port}/segment.ts\n#EXT-X-ENDLIST\n`,
      );
      const playlist = path.join(folder, 'posing.m3u8');
      await writeFile(playlist, `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:1,\n${elsewhere}\n#EXT-X-ENDLIST\n`);

      expect(await runFfmpegFrame(ffmpeg.path, posing, 0.5, 320)).to.equal(undefined);
      for (const file of [posing, playlist]) {
        await probeMedia(ffprobe.path, file).then(
          () => expect.fail(`probed ${file}`),
          (error: Error) => expect(error.message).to.match(/ffprobe could not read/),
        );
        await computeWaveform({ ffmpegPath: ffmpeg.path, video: file, audioStreams: 1 }).then(
          () => expect.fail(`decoded ${file}`),
          (error: Error) => expect(error.message).to.match(/could not be decoded/),
        );
        await measureLoudness(ffmpeg.path, file).then(
          () => expect.fail(`measured ${file}`),
          (error: Error) => expect(error.message).to.match(/whitelist/),
        );
        await createThumbnail({ ffmpegPath: ffmpeg.path, video: file, target: path.join(folder, 'thumbnail.jpeg') }).then(
          () => expect.fail(`thumbnail of ${file}`),
          (error: Error) => expect(error.message).to.match(/No thumbnail/),
        );
      }
      expect(requests).to.deep.equal([]);
      // The real video still reads.
      expect((await probeMedia(ffprobe.path, elsewhere)).streams.map((stream) => stream.type)).to.deep.equal(['video', 'audio']);
      expect(await runFfmpegFrame(ffmpeg.path, elsewhere, 0.5, 320)).to.be.instanceOf(Buffer);
    });
  });
});
