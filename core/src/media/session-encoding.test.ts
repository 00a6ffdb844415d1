import { expect } from 'chai';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SyntheticCaptureSource, type CaptureInputs } from './capture-source.js';
import { locateFfmpegTools } from './ffmpeg-toolbox.js';
import { FfmpegProcess } from './ffmpeg-process.js';
import { probeMedia } from './probe.js';
import { RecordingFrames } from './recording-frames.js';
import { captureFormat, recordingEncodingArgs, teeSlave } from './session-encoding.js';
import { crfVideo } from '../testing/fixtures.js';

describe('session encoding', () => {
  it('maps the resolution setting to 16:9 sizes, no taller than the largest display', () => {
    expect(captureFormat('720p', 30, 1080)).to.deep.equal({ width: 1280, height: 720, frameRate: 30 });
    expect(captureFormat('1080p', 60, 1080)).to.deep.equal({ width: 1920, height: 1080, frameRate: 60 });
    expect(captureFormat('1440p', 60, 2160)).to.deep.include({ width: 2560, height: 1440 });
    expect(captureFormat('4K', 60, 2160)).to.deep.include({ width: 3840, height: 2160 });
    expect(captureFormat('4K', 60, 1080)).to.deep.include({ width: 1920, height: 1080 });
    expect(captureFormat('1080p', 60, 900)).to.deep.include({ width: 1600, height: 900 });
  });

  it('encodes with a keyframe every second, keeps every audio track with its title, into a fragmented MP4', () => {
    const inputs = {
      args: ['-f', 'x', '-i', 'a', '-f', 'y', '-i', 'b'],
      video: '0:v',
      audioTracks: [
        { map: '[mix]', name: 'Full Mix' },
        { map: '[t0]', name: 'Yeti' },
      ],
    };
    const args = recordingEncodingArgs({
      inputs,
      video: crfVideo({ width: 1280, height: 720, frameRate: 30 }, 23),
      outputs: { sessionPath: '/tmp/o.mp4' },
    }).join(' ');
    expect(args).to.include('-map 0:v -map [mix] -map [t0] -vf scale=1280:720');
    expect(args).to.include(
      '-c:v libx264 -preset superfast -tune zerolatency -crf 23 -g 30 -keyint_min 30 -force_key_frames expr:gte(t,n_forced) -sc_threshold 0 -pix_fmt yuv420p -c:a aac',
    );
    expect(args).to.include(
      '-metadata:s:a:0 title=Full Mix -metadata:s:a:0 handler_name=Full Mix -metadata:s:a:1 title=Yeti -metadata:s:a:1 handler_name=Yeti',
    );
    expect(args).to.include('-movflags +frag_keyframe+empty_moov+default_base_moof -frag_duration 1000000 -flush_packets 1 -f mp4');
    expect(args.endsWith('-y /tmp/o.mp4')).to.equal(true);
    // Frames keep their capture times: a slow encode drops frames instead of duplicating them.
    expect(args.startsWith('-vsync vfr -f x -i a')).to.equal(true);
  });

  it('takes the encoder the engine has: a listed hardware codec, else x264', () => {
    const video = { ...crfVideo({ width: 1280, height: 720, frameRate: 60 }, 23), encoder: 'gpu' as const };
    const inputs = { args: ['-i', 'a'], video: '0:v', audioTracks: [{ map: '0:a', name: 'Full Mix' }] };
    const nvenc = { friendlyName: 'H.264 (NVIDIA NVENC)', internalEncoderId: 'h264_nvenc', isHardwareEncoder: true };
    expect(recordingEncodingArgs({ inputs, video, codecs: [nvenc], outputs: { sessionPath: 'o.mp4' } })).to.include('h264_nvenc');
    expect(recordingEncodingArgs({ inputs, video, codecs: [], outputs: { sessionPath: 'o.mp4' } })).to.include('libx264');
  });

  it("encodes the synthetic test pattern with x264's cheapest preset, a screen grab with its real-time one", () => {
    const format = { width: 1280, height: 720, frameRate: 30 };
    const preset = (inputs: CaptureInputs) => {
      const args = recordingEncodingArgs({ inputs, video: crfVideo(format, 23), outputs: { sessionPath: 'o.mp4' } });
      return args[args.indexOf('-preset') + 1];
    };
    expect(preset(new SyntheticCaptureSource().inputs(format))).to.equal('ultrafast');
    expect(preset(new SyntheticCaptureSource('game.mp4').inputs(format))).to.equal('superfast');
    expect(preset({ args: ['-i', 'a'], video: '0:v', audioTracks: [{ map: '1:a', name: 'Full Mix' }] })).to.equal('superfast');
  });
});

describe('recording outputs', function () {
  this.timeout(30000);
  const inputs = { args: ['-f', 'x', '-i', 'a', '-f', 'y', '-i', 'b'], video: '0:v', audioTracks: [{ map: '1:a', name: 'Full Mix' }] };
  const video = crfVideo({ width: 1280, height: 720, frameRate: 30 }, 23);
  const frames = { pipe: 3, width: 480, height: 270, frameRate: 10 };

  it('feeds the session file and the buffer segments from one encode with the tee muxer (Hybrid)', () => {
    const args = recordingEncodingArgs({
      inputs,
      video,
      outputs: { sessionPath: '/c/s.mp4', buffer: { pattern: '/c/b/segment-%06d.ts', segmentSeconds: 2 }, frames },
    });
    expect(args.filter((arg) => arg === '-c:v')).to.have.length(2); // x264 once, mjpeg for the frames
    expect(args.filter((arg) => arg === 'libx264')).to.have.length(1);
    const tee = args[args.indexOf('tee') + 1];
    expect(args.slice(args.indexOf('-flags'), args.indexOf('tee') + 1)).to.deep.equal(['-flags', '+global_header', '-f', 'tee']);
    expect(tee).to.equal(
      '[f=mp4:movflags=+frag_keyframe+empty_moov+default_base_moof:frag_duration=1000000:flush_packets=1]/c/s.mp4|[f=segment:segment_time=2:segment_format=mpegts]/c/b/segment-%06d.ts',
    );
    expect(args.slice(-16).join(' ')).to.equal(
      "-map 0:v -vf select='isnan(prev_selected_t)+gte(t-prev_selected_t,0.090)',scale=480:270,setsar=1 -r 10 -pix_fmt yuvj420p -c:v mjpeg -q:v 7 -an -f mjpeg pipe:3",
    );
  });

  it('writes only the segments in Buffer mode and only the session file in Session mode', () => {
    const buffer = recordingEncodingArgs({
      inputs,
      video,
      outputs: { buffer: { pattern: '/c/b/segment-%06d.ts', segmentSeconds: 2 } },
    }).join(' ');
    expect(buffer).to.match(/-f segment -segment_time 2 -segment_format mpegts \/c\/b\/segment-%06d\.ts$/);
    expect(buffer).to.not.include('tee');
    const session = recordingEncodingArgs({ inputs, video, outputs: { sessionPath: '/c/s.mp4' } }).join(' ');
    expect(session).to.match(/-f mp4 -y \/c\/s\.mp4$/);
    expect(session).to.not.include('segment');
    expect(() => recordingEncodingArgs({ inputs, video, outputs: { frames } })).to.throw(/session file, a replay buffer, or both/);
  });

  it('escapes file names and option values for the tee muxer', () => {
    expect(teeSlave({ f: 'mp4' }, "C:\\Users\\it's\\a|b [1].mp4")).to.equal("[f=mp4]C:\\\\Users\\\\it\\'s\\\\a\\|b \\[1\\].mp4");
    // Unescaped once by the tee, once by the option parser.
    expect(teeSlave({ f: 'segment', segment_list: 'C:\\x:y' }, 'o')).to.equal('[f=segment:segment_list=C\\\\:\\\\\\\\x\\\\:y]o');
  });

  it('records a session file, buffer segments and frames in one ffmpeg run, whatever the folder is called', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), "keyframe-outputs-it's 100% a|b [x]-"));
    try {
      const { ffmpeg, ffprobe } = locateFfmpegTools();
      const small = { width: 320, height: 180, frameRate: 30 };
      const sessionPath = path.join(folder, 'session.mp4');
      await mkdir(path.join(folder, 'buffer'));
      const run = FfmpegProcess.start({
        ffmpegPath: ffmpeg.path,
        args: recordingEncodingArgs({
          inputs: {
            args: ['-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=30:duration=5', '-f', 'lavfi', '-i', 'sine=duration=5'],
            video: '0:v',
            audioTracks: [{ map: '1:a', name: 'Full Mix' }],
          },
          video: crfVideo(small, 30),
          outputs: { sessionPath, buffer: { pattern: path.join(folder, 'buffer', 'segment-%06d.ts'), segmentSeconds: 2 }, frames },
        }),
        outputPipe: true,
      });
      let jpegs = 0;
      const recordingFrames = new RecordingFrames();
      recordingFrames.onFrame(() => jpegs++);
      recordingFrames.follow(run.outputPipe!);
      expect((await run.exited).errorText).to.equal('');
      const probed = await probeMedia(ffprobe.path, sessionPath);
      expect(probed.durationSeconds).to.be.within(4.9, 5.2);
      expect(probed.streams.map((stream) => `${stream.type}:${stream.codec}`)).to.deep.equal(['video:h264', 'audio:aac']);
      expect(await readdir(path.join(folder, 'buffer'))).to.deep.equal(['segment-000000.ts', 'segment-000001.ts', 'segment-000002.ts']);
      expect(jpegs).to.be.within(49, 51);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
