import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Codec } from '../protocol/index.js';
import { locateFfmpegTools } from './ffmpeg-toolbox.js';
import { probeMedia } from './probe.js';
import {
  chooseVideoCodec,
  encoderArgs,
  encoderProfile,
  ENCODER_PROFILES,
  toCodec,
  videoEncoderArgs,
  type VideoEncoderSettings,
} from './video-encoder.js';

const run = promisify(execFile);
/** True when `sequence` appears in `args` as consecutive elements. */
const hasRun = (args: string[], sequence: string[]) => args.some((_, at) => sequence.every((item, offset) => args[at + offset] === item));
const codec = (id: string): Codec => toCodec(encoderProfile(id)!);
const X264 = encoderProfile('libx264')!;
const BASE: VideoEncoderSettings = {
  encoder: 'gpu',
  codec: null,
  rateControl: 'VBR',
  crfValue: 23,
  cqLevel: 20,
  bitrate: 50,
  minBitrate: 40,
  maxBitrate: 70,
  frameRate: 60,
};

describe('video encoder arguments', () => {
  it('keeps the chosen codec when this machine has it, else takes the best one and says why', () => {
    const all = [codec('libx264'), codec('h264_vaapi'), codec('h264_qsv'), codec('hevc_qsv'), codec('h264_nvenc')];
    expect(chooseVideoCodec({ encoder: 'gpu', codec: codec('h264_qsv') }, all)).to.deep.equal({ codec: codec('h264_qsv') });
    expect(chooseVideoCodec({ encoder: 'gpu', codec: null }, all)).to.deep.equal({ codec: codec('h264_nvenc') });
    expect(chooseVideoCodec({ encoder: 'cpu', codec: null }, all)).to.deep.equal({ codec: codec('libx264') });
    // A codec chosen on another machine: the same format from the best vendor here.
    expect(chooseVideoCodec({ encoder: 'gpu', codec: codec('hevc_nvenc') }, all)).to.deep.equal({
      codec: codec('hevc_qsv'),
      reason: 'H.265 (NVIDIA NVENC) is not available on this machine',
    });
    expect(chooseVideoCodec({ encoder: 'gpu', codec: null }, [codec('libx264'), codec('libx265')])).to.deep.equal({
      codec: codec('libx264'),
      reason: 'no working hardware encoder was found',
    });
    expect(chooseVideoCodec({ encoder: 'cpu', codec: null }, [])).to.deep.equal({ codec: codec('libx264') });
    expect(
      chooseVideoCodec({ encoder: 'gpu', codec: null }, [codec('hevc_vaapi'), codec('h264_amf'), codec('libx264')]).codec,
    ).to.deep.equal(codec('h264_amf'));
    expect(ENCODER_PROFILES.find((entry) => entry.id === 'libx264')!.friendlyName).to.equal('H.264 (x264, CPU)');
  });

  it('builds the x264 arguments of each rate control, a keyframe every second, no scene-cut keyframes', () => {
    const x264 = (change: Partial<VideoEncoderSettings>) => videoEncoderArgs({ ...BASE, encoder: 'cpu', ...change }, [codec('libx264')]);
    const common = ['-g', '60', '-keyint_min', '60', '-sc_threshold', '0', '-pix_fmt', 'yuv420p'];
    expect(x264({ rateControl: 'CBR' })).to.deep.equal([
      '-r',
      '60',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-b:v',
      '50000k',
      '-minrate',
      '50000k',
      '-maxrate',
      '50000k',
      '-bufsize',
      '50000k',
      '-x264-params',
      'nal-hrd=cbr',
      ...common,
    ]);
    expect(x264({ rateControl: 'VBR' })).to.deep.equal([
      '-r',
      '60',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-b:v',
      '40000k',
      '-maxrate',
      '70000k',
      '-bufsize',
      '70000k',
      ...common,
    ]);
    expect(x264({ rateControl: 'CRF', crfValue: 18 })).to.deep.equal([
      '-r',
      '60',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '18',
      ...common,
    ]);
    expect(x264({ rateControl: 'CQP', cqLevel: 22 })).to.deep.equal([
      '-r',
      '60',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-qp',
      '22',
      ...common,
    ]);
    expect(x264({ frameRate: 30, width: 1280, height: 720 }).slice(0, 4)).to.deep.equal([
      '-vf',
      'scale=1280:720:force_original_aspect_ratio=decrease,pad=1280:720:(ow-iw)/2:(oh-ih)/2,setsar=1',
      '-r',
      '30',
    ]);
  });

  it("encodes a live capture with x264's real-time preset and a keyframe on each second of the timeline", () => {
    const live = videoEncoderArgs({ ...BASE, encoder: 'cpu', rateControl: 'CRF', crfValue: 20 }, [codec('libx264')], { live: true });
    expect(live).to.deep.equal([
      '-r',
      '60',
      '-c:v',
      'libx264',
      '-preset',
      'superfast',
      '-tune',
      'zerolatency',
      '-crf',
      '20',
      '-g',
      '60',
      '-keyint_min',
      '60',
      '-force_key_frames',
      'expr:gte(t,n_forced)',
      '-sc_threshold',
      '0',
      '-pix_fmt',
      'yuv420p',
    ]);
    // Other encoders keep their presets; offline encodes (compression) keep x264's veryfast.
    const nvenc = encoderArgs(encoderProfile('h264_nvenc')!, BASE, { live: true });
    expect(hasRun(nvenc, ['-preset', 'p4']) && hasRun(nvenc, ['-force_key_frames', 'expr:gte(t,n_forced)'])).to.equal(true);
    const offline = encoderArgs(X264, BASE);
    expect(hasRun(offline, ['-preset', 'veryfast'])).to.equal(true);
    expect(offline).to.not.include('-force_key_frames');
  });

  it("encodes the flat test pattern with x264's cheapest preset, keyframes and rate control unchanged", () => {
    const settings = { ...BASE, encoder: 'cpu' as const, rateControl: 'CRF' as const, crfValue: 20 };
    const live = videoEncoderArgs(settings, [codec('libx264')], { live: true });
    const flat = videoEncoderArgs(settings, [codec('libx264')], { live: true, flatPicture: true });
    expect(flat).to.deep.equal(
      live.flatMap((arg) => (arg === 'superfast' ? ['ultrafast'] : arg === 'zerolatency' ? [arg, '-threads', '1'] : [arg])),
    );
    // A hardware encoder costs no CPU for it: its live preset stays.
    const nvenc = (flatPicture: boolean) => encoderArgs(encoderProfile('h264_nvenc')!, BASE, { live: true, flatPicture });
    expect(nvenc(true)).to.deep.equal(nvenc(false));
  });

  it("builds the hardware encoders' arguments", () => {
    const args = (id: string, change: Partial<VideoEncoderSettings>) => encoderArgs(encoderProfile(id)!, { ...BASE, ...change });
    expect(args('h264_nvenc', { rateControl: 'CBR' })).to.deep.equal([
      '-r',
      '60',
      '-c:v',
      'h264_nvenc',
      '-preset',
      'p4',
      '-rc',
      'cbr',
      '-b:v',
      '50000k',
      '-minrate',
      '50000k',
      '-maxrate',
      '50000k',
      '-bufsize',
      '50000k',
      '-g',
      '60',
      '-keyint_min',
      '60',
      '-forced-idr',
      '1',
      '-pix_fmt',
      'yuv420p',
    ]);
    expect(args('hevc_nvenc', { rateControl: 'VBR' })).to.include.ordered.members([
      '-r',
      '60',
      '-c:v',
      'hevc_nvenc',
      '-preset',
      'p4',
      '-rc',
      'vbr',
      '-b:v',
      '40000k',
      '-maxrate',
      '70000k',
    ]);
    expect(hasRun(args('h264_qsv', {}), ['-pix_fmt', 'nv12'])).to.equal(true);
    expect(hasRun(args('libx265', {}), ['-x265-params', 'scenecut=0:log-level=error'])).to.equal(true);
    const table: [string, VideoEncoderSettings['rateControl'], string[]][] = [
      ['h264_nvenc', 'CRF', ['-rc', 'vbr', '-cq', '23', '-b:v', '0']],
      ['h264_nvenc', 'CQP', ['-rc', 'constqp', '-qp', '20']],
      ['h264_qsv', 'CRF', ['-global_quality', '23']],
      ['h264_qsv', 'CQP', ['-q:v', '20']],
      ['h264_amf', 'VBR', ['-rc', 'vbr_peak', '-b:v', '40000k', '-maxrate', '70000k', '-bufsize', '70000k']],
      ['h264_amf', 'CRF', ['-rc', 'cqp', '-qp_i', '23', '-qp_p', '23']],
      ['h264_vaapi', 'CBR', ['-b:v', '50000k', '-minrate', '50000k', '-maxrate', '50000k', '-bufsize', '50000k']],
      ['h264_vaapi', 'CQP', ['-qp', '20']],
      ['h264_videotoolbox', 'CRF', ['-q:v', '55']],
      ['libx265', 'CRF', ['-crf', '23']],
      ['libsvtav1', 'CQP', ['-qp', '20']],
    ];
    for (const [id, rateControl, expected] of table) {
      const built = args(id, { rateControl });
      const at = built.indexOf(expected[0]!);
      expect(built.slice(at, at + expected.length), `${id} ${rateControl}: ${built.join(' ')}`).to.deep.equal(expected);
    }
    const vaapi = encoderArgs(
      encoderProfile('h264_vaapi')!,
      { ...BASE, width: 1920, height: 1080 },
      { vaapiDevice: '/dev/dri/renderD129' },
    );
    expect(vaapi.slice(0, 4)).to.deep.equal([
      '-vaapi_device',
      '/dev/dri/renderD129',
      '-vf',
      'scale=1920:1080:force_original_aspect_ratio=decrease,pad=1920:1080:(ow-iw)/2:(oh-ih)/2,setsar=1,format=nv12,hwupload',
    ]);
    expect(vaapi).to.not.include('-pix_fmt');
  });

  describe('real x264 encodes (2 s of testsrc at 320x180)', function () {
    this.timeout(30000);
    const tools = locateFfmpegTools();
    let folder: string;
    before(async () => {
      folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-encoder-'));
    });
    after(() => rm(folder, { recursive: true, force: true }));

    /** Encodes and reports the video bit rate (kbit/s), the keyframe times and the picture size. */
    const encode = async (name: string, change: Partial<VideoEncoderSettings>, source = 'testsrc=size=320x180:rate=30:duration=2') => {
      const output = path.join(folder, `${name}.mp4`);
      const settings: VideoEncoderSettings = {
        ...BASE,
        encoder: 'cpu',
        frameRate: 30,
        bitrate: 1,
        minBitrate: 1,
        maxBitrate: 2,
        ...change,
      };
      await run(tools.ffmpeg.path, [
        '-hide_banner',
        '-loglevel',
        'error',
        '-nostdin',
        '-y',
        '-f',
        'lavfi',
        '-i',
        source,
        ...videoEncoderArgs(settings, [codec('libx264')]),
        '-an',
        output,
      ]);
      const { stdout } = await run(tools.ffprobe.path, [
        '-v',
        'error',
        '-select_streams',
        'v:0',
        '-show_entries',
        'stream=bit_rate',
        '-of',
        'csv=p=0',
        output,
      ]);
      const { stdout: keyframes } = await run(tools.ffprobe.path, [
        '-v',
        'error',
        '-select_streams',
        'v:0',
        '-skip_frame',
        'nokey',
        '-show_entries',
        'frame=pts_time',
        '-of',
        'csv=p=0',
        output,
      ]);
      const probed = await probeMedia(tools.ffprobe.path, output);
      return {
        kbps: Number(stdout.trim()) / 1000,
        keyframes: keyframes
          .split('\n')
          .map((line) => Number.parseFloat(line))
          .filter(Number.isFinite),
        video: probed.streams.find((stream) => stream.type === 'video')!,
        duration: probed.durationSeconds!,
      };
    };

    it('CBR lands on the target, VBR stays under the peak, and CRF/CQP follow the quality number', async () => {
      const cbr = await encode('cbr', { rateControl: 'CBR', bitrate: 1 });
      const vbr = await encode('vbr', { rateControl: 'VBR', minBitrate: 1, maxBitrate: 2 });
      const crfFine = await encode('crf18', { rateControl: 'CRF', crfValue: 18 });
      const crfCoarse = await encode('crf35', { rateControl: 'CRF', crfValue: 35 });
      const cqpFine = await encode('qp18', { rateControl: 'CQP', cqLevel: 18 });
      const cqpCoarse = await encode('qp35', { rateControl: 'CQP', cqLevel: 35 });
      const figures = {
        cbr: cbr.kbps,
        vbr: vbr.kbps,
        crf18: crfFine.kbps,
        crf35: crfCoarse.kbps,
        qp18: cqpFine.kbps,
        qp35: cqpCoarse.kbps,
      };
      console.log(`      kbit/s: ${JSON.stringify(figures)}`);
      expect(cbr.kbps, 'CBR 1 Mbps').to.be.within(800, 1200);
      expect(vbr.kbps, 'VBR 1–2 Mbps').to.be.within(50, 2200);
      expect(crfFine.kbps).to.be.within(10, 2000);
      expect(crfCoarse.kbps).to.be.below(crfFine.kbps / 1.5);
      expect(cqpFine.kbps).to.be.within(10, 2000);
      expect(cqpCoarse.kbps).to.be.below(cqpFine.kbps / 1.5);
      for (const result of [cbr, vbr, crfFine, cqpFine]) {
        expect(result.keyframes).to.deep.equal([0, 1]);
        expect(result.duration).to.be.closeTo(2, 0.05);
        expect(result.video).to.deep.include({ codec: 'h264', width: 320, height: 180 });
      }
    });

    it('scales a 4:3 picture into the target size with bars', async () => {
      const fitted = await encode('fit', { rateControl: 'CRF', width: 320, height: 180 }, 'testsrc=size=240x180:rate=30:duration=1');
      expect(fitted.video).to.deep.include({ width: 320, height: 180 });
    });
  });
});
