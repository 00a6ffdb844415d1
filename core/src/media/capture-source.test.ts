import 'reflect-metadata';
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AudioDevices } from '../platform/audio-devices.js';
import type { DetectedDisplay } from '../platform/displays.js';
import {
  audioTrackPlan,
  WALL_CLOCK_SYNC,
  chooseAudioDevices,
  chooseCaptureSource,
  ScreenCaptureSource,
  SyntheticCaptureSource,
  x11Screen,
  type CaptureCapabilities,
} from './capture-source.js';
import { locateFfmpegTools } from './ffmpeg-toolbox.js';
import { FfmpegProcess } from './ffmpeg-process.js';
import { probeMedia } from './probe.js';

const run = promisify(execFile);

const DISPLAYS: DetectedDisplay[] = [
  { deviceName: 'DP-1', deviceId: 'DP-1', isPrimary: true, isHdr: false, width: 2560, height: 1440, x: 1920, y: 0 },
  { deviceName: 'HDMI-1', deviceId: 'HDMI-1', isPrimary: false, isHdr: false, width: 1920, height: 1080, x: 0, y: 180 },
];
const PULSE: AudioDevices = {
  backend: 'pulse',
  inputs: [
    { id: 'mic.usb', name: 'Yeti', isDefault: true, source: 'mic.usb' },
    { id: 'mic.builtin', name: 'Built-in', isDefault: false, source: 'mic.builtin' },
  ],
  outputs: [
    { id: 'sink.headset', name: 'Headset', isDefault: true, source: 'sink.headset.monitor' },
    { id: 'sink.hdmi', name: 'HDMI', isDefault: false, source: 'sink.hdmi.monitor' },
  ],
};
const linux = (variables: NodeJS.ProcessEnv) => ({ platform: 'linux' as const, home: '/h', variables });
const capabilities = (inputs: string[], audio: AudioDevices = PULSE): CaptureCapabilities => ({
  inputFormats: new Set(inputs),
  displays: DISPLAYS,
  audio,
});

describe('capture sources', () => {
  it('chooses x11grab with a display and the input, synthetic otherwise, and says why', () => {
    const full = capabilities(['x11grab', 'pulse', 'lavfi']);
    expect(chooseCaptureSource(linux({ DISPLAY: ':0' }), full)).to.deep.include({ notes: [] });
    expect(chooseCaptureSource(linux({ DISPLAY: ':0' }), full).source.name).to.equal('x11grab');
    expect(chooseCaptureSource(linux({ DISPLAY: ':0', KEYFRAME_CAPTURE: 'synthetic' }), full)).to.not.have.property('fallbackReason');
    expect(chooseCaptureSource(linux({ DISPLAY: ':0', KEYFRAME_CAPTURE: 'synthetic' }), full).source.name).to.equal('synthetic');
    expect(chooseCaptureSource(linux({}), full).fallbackReason).to.match(/DISPLAY is not set/);
    expect(chooseCaptureSource(linux({ DISPLAY: ':0' }), capabilities(['pulse'])).fallbackReason).to.match(/no x11grab input/);
    expect(chooseCaptureSource(linux({ DISPLAY: ':0' })).fallbackReason).to.match(/not ready/);
    expect(chooseCaptureSource(linux({ KEYFRAME_CAPTURE: 'webcam' }), full).fallbackReason).to.match(/webcam/);
    // Forced: taken even without a probed engine or a DISPLAY.
    expect(chooseCaptureSource(linux({ KEYFRAME_CAPTURE: 'x11grab' })).source.name).to.equal('x11grab');
    expect(
      chooseCaptureSource(
        { platform: 'win32', home: 'C:\\', variables: {} },
        capabilities(['gdigrab', 'dshow'], { ...PULSE, backend: 'dshow' }),
      ).source.name,
    ).to.equal('gdigrab');
    expect(chooseCaptureSource({ platform: 'sunos', home: '/h', variables: {} }, full).fallbackReason).to.match(/sunos/);
    // No PulseAudio in the build (the bundled 2018 ffmpeg): screen with a silent track.
    const silent = chooseCaptureSource(linux({ DISPLAY: ':0', WAYLAND_DISPLAY: 'wayland-0' }), capabilities(['x11grab']));
    expect(silent.source.name).to.equal('x11grab');
    expect(silent.notes).to.deep.equal([
      'this ffmpeg build cannot record pulse audio: recordings get a silent audio track',
      'Wayland session: x11grab sees only X11 (XWayland) windows',
    ]);
    expect(
      chooseCaptureSource(linux({ DISPLAY: ':0' }), capabilities(['x11grab', 'pulse'], { inputs: [], outputs: [] })).notes[0],
    ).to.match(/no pulse audio devices/);
  });

  it('grabs the selected display at its own size and place', () => {
    // Without sound inputs, so that the screen is the first input.
    const source = chooseCaptureSource(linux({ DISPLAY: ':1' }), capabilities(['x11grab'])).source;
    const primary = source.inputs({ width: 1920, height: 1080, frameRate: 60 });
    expect(primary.args.slice(0, 12)).to.deep.equal([
      '-thread_queue_size',
      '15',
      '-f',
      'x11grab',
      '-framerate',
      '60',
      '-video_size',
      '2560x1440',
      '-draw_mouse',
      '1',
      '-i',
      ':1.0+1920,0',
    ]);
    expect(primary.captureSize).to.deep.equal({ width: 2560, height: 1440 });
    const hdmi = source.inputs({
      width: 1280,
      height: 720,
      frameRate: 30,
      display: { deviceName: 'HDMI-1', deviceId: 'HDMI-1', isPrimary: false, isHdr: false },
    });
    expect(hdmi.args.slice(0, 12)).to.include.members(['1920x1080', ':1.0+0,180']);
    expect(x11Screen(':99')).to.equal(':99.0');
    expect(x11Screen('localhost:10.0')).to.equal('localhost:10.0');

    const gdigrab = new ScreenCaptureSource({ grabber: 'gdigrab', displays: DISPLAYS, audio: { inputs: [], outputs: [] } }).inputs({
      width: 1920,
      height: 1080,
      frameRate: 60,
      display: DISPLAYS[1]!,
    });
    expect(gdigrab.args).to.deep.equal([
      '-thread_queue_size',
      '15',
      '-f',
      'gdigrab',
      '-framerate',
      '60',
      '-offset_x',
      '0',
      '-offset_y',
      '180',
      '-video_size',
      '1920x1080',
      '-draw_mouse',
      '1',
      '-i',
      'desktop',
      '-f',
      'lavfi',
      '-i',
      'anullsrc=channel_layout=stereo:sample_rate=48000',
    ]);
    expect(gdigrab).to.deep.include({ video: '0:v', audioTracks: [{ map: '1:a', name: 'Full Mix' }] });
    const mac = new ScreenCaptureSource({ grabber: 'avfoundation', displays: DISPLAYS, audio: { inputs: [], outputs: [] } }).inputs({
      width: 1920,
      height: 1080,
      frameRate: 30,
      display: DISPLAYS[1]!,
    });
    expect(mac.args.slice(0, 10)).to.include('Capture screen 1');
  });

  it('records the default output and microphone when the settings select no device, the selected ones otherwise', () => {
    expect(chooseAudioDevices({}, PULSE)).to.deep.equal({
      devices: [
        { name: 'Headset', source: 'sink.headset.monitor', volume: 1 },
        { name: 'Yeti', source: 'mic.usb', volume: 1 },
      ],
      missing: [],
    });
    // A game's volume override scales what the speakers play, not the voice.
    expect(chooseAudioDevices({ inputDevices: [], outputDevices: [], outputVolume: 0.25 }, PULSE).devices).to.deep.equal([
      { name: 'Headset', source: 'sink.headset.monitor', volume: 0.25 },
      { name: 'Yeti', source: 'mic.usb', volume: 1 },
    ]);
    // No microphone on this machine: the default output alone, and nothing reported missing.
    expect(chooseAudioDevices({}, { ...PULSE, inputs: [] })).to.deep.equal({
      devices: [{ name: 'Headset', source: 'sink.headset.monitor', volume: 1 }],
      missing: [],
    });
    expect(
      chooseAudioDevices({ outputDevices: [{ id: 'sink.hdmi', name: 'HDMI', volume: 0.5 }], outputVolume: 0.5 }, PULSE).devices,
      'only the speakers chosen: no microphone',
    ).to.deep.equal([{ name: 'HDMI', source: 'sink.hdmi.monitor', volume: 0.25 }]);
    expect(
      chooseAudioDevices(
        {
          inputDevices: [
            { id: 'default', name: 'Default', volume: 0.5 },
            { id: 'mic.usb', name: 'Yeti', volume: 1 },
            { id: 'mic.gone', name: 'Old mic', volume: 1 },
          ],
          outputDevices: [{ id: 'sink.hdmi', name: 'HDMI', volume: 1.5 }],
        },
        PULSE,
      ),
    ).to.deep.equal({
      devices: [
        { name: 'HDMI', source: 'sink.hdmi.monitor', volume: 1.5 },
        { name: 'Yeti', source: 'mic.usb', volume: 0.5 },
      ],
      missing: ['Old mic'],
    });
    expect(chooseAudioDevices({ inputDevices: [{ id: 'x', name: 'X', volume: 1 }] }, { inputs: [], outputs: [] })).to.deep.equal({
      devices: [],
      missing: ['X'],
    });
  });

  it('plans the audio tracks: one device as is, a mix with volumes, separate tracks per device', () => {
    expect(audioTrackPlan(1, [{ name: 'Headset', volume: 1 }], false)).to.deep.equal({ tracks: [{ map: '1:a', name: 'Full Mix' }] });
    expect(
      audioTrackPlan(
        1,
        [
          { name: 'Headset', volume: 1 },
          { name: 'Yeti', volume: 0.5 },
        ],
        false,
      ),
    ).to.deep.equal({
      filter:
        '[1:a]aformat=sample_rates=48000:channel_layouts=stereo[m0];[2:a]aformat=sample_rates=48000:channel_layouts=stereo,volume=0.5[m1];' +
        '[m0][m1]amix=inputs=2:duration=longest:dropout_transition=0,volume=2[mix]',
      tracks: [{ map: '[mix]', name: 'Full Mix' }],
    });
    expect(
      audioTrackPlan(
        1,
        [
          { name: 'Headset', volume: 1 },
          { name: 'Yeti', volume: 2 },
        ],
        true,
      ),
    ).to.deep.equal({
      filter:
        '[1:a]aformat=sample_rates=48000:channel_layouts=stereo,asplit=2[m0][t0];[2:a]aformat=sample_rates=48000:channel_layouts=stereo,volume=2,asplit=2[m1][t1];' +
        '[m0][m1]amix=inputs=2:duration=longest:dropout_transition=0,volume=2[mix]',
      tracks: [
        { map: '[mix]', name: 'Full Mix' },
        { map: '[t0]', name: 'Headset' },
        { map: '[t1]', name: 'Yeti' },
      ],
    });
    expect(
      audioTrackPlan(
        0,
        [
          { name: 'Headset', volume: 1 },
          { name: 'Yeti', volume: 1 },
        ],
        false,
        { reversed: true },
      ).filter,
      'devices opened in reverse order',
    ).to.match(/^\[1:a\]aformat=[^;]*\[m0\];\[0:a\]aformat=[^;]*\[m1\];/);
    expect(audioTrackPlan(3, [{ name: 'Mic', volume: 0.8 }], false).filter).to.equal(
      '[3:a]aformat=sample_rates=48000:channel_layouts=stereo,volume=0.8[m0];[m0]anull[mix]',
    );
  });

  it('gives the PulseAudio inputs before the screen, keeps the wall-clock stamps of all and lines the tracks up by them, and maps the tracks', () => {
    const source = chooseCaptureSource(linux({ DISPLAY: ':0' }), capabilities(['x11grab', 'pulse'])).source;
    const inputs = source.inputs({
      width: 1280,
      height: 720,
      frameRate: 30,
      separateAudioTracks: true,
      inputDevices: [{ id: 'mic.usb', name: 'Yeti', volume: 1 }],
      outputDevices: [{ id: 'default', name: 'Default', volume: 1 }],
    });
    const pulse = (source: string) => [
      '-thread_queue_size',
      '1024',
      '-f',
      'pulse',
      '-sample_rate',
      '48000',
      '-channels',
      '2',
      '-i',
      source,
    ];
    expect(inputs.args.slice(0, 21), 'the speakers open last, just before the screen').to.deep.equal([
      '-copyts',
      ...pulse('mic.usb'),
      ...pulse('sink.headset.monitor'),
    ]);
    expect(inputs.args.slice(21, 24)).to.deep.equal(['-thread_queue_size', '8', '-f']);
    expect(inputs.args.slice(-2)).to.deep.equal([
      '-filter_complex',
      audioTrackPlan(
        0,
        [
          { name: 'Headset', volume: 1 },
          { name: 'Yeti', volume: 1 },
        ],
        true,
        { reversed: true, deviceFilter: WALL_CLOCK_SYNC.audio },
      ).filter!,
    ]);
    expect(inputs.args.at(-1)).to.match(
      /^\[1:a\]aformat=sample_rates=48000:channel_layouts=stereo,asetpts=PTS-RTCSTART\/\(TB\*1000000\),aresample=async=1:first_pts=0,asplit=2\[m0\]\[t0\];/,
    );
    expect(inputs.videoFilter, 'the picture counts from the same moment').to.equal('setpts=PTS-RTCSTART/(TB*1000000)');
    expect(inputs.video).to.equal('2:v');
    expect(inputs.audioTracks[0]!.map).to.equal('[mix]');
    expect(inputs.audioTracks!.map((track) => track.name)).to.deep.equal(['Full Mix', 'Headset', 'Yeti']);
  });

  it('gives the default speakers and microphone their own tracks after the mix, whatever enableSeparateAudioTracks says', () => {
    const source = chooseCaptureSource(linux({ DISPLAY: ':0' }), capabilities(['x11grab', 'pulse'])).source;
    const defaults = source.inputs({ width: 1280, height: 720, frameRate: 30, separateAudioTracks: false });
    expect(defaults.audioTracks).to.deep.equal([
      { map: '[mix]', name: 'Full Mix' },
      { map: '[t0]', name: 'Headset' },
      { map: '[t1]', name: 'Yeti' },
    ]);
    expect(defaults.args.filter((arg) => arg === 'pulse')).to.have.length(2);
    const speakersOnly = { width: 1280, height: 720, frameRate: 30, outputDevices: [{ id: 'default', name: '', volume: 1 }] };
    expect(source.inputs(speakersOnly).audioTracks, 'one device: the mix is the device, lined up').to.deep.equal([
      { map: '[mix]', name: 'Full Mix' },
    ]);
    expect(
      source.inputs({ ...speakersOnly, separateAudioTracks: true }).audioTracks.map((track) => track.name),
      'one device with separate tracks asked for',
    ).to.deep.equal(['Full Mix', 'Headset']);
  });

  describe('with ffmpeg', function () {
    this.timeout(20000);
    const tools = locateFfmpegTools();
    let folder: string;
    before(async () => {
      folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-capture-'));
    });
    after(() => rm(folder, { recursive: true, force: true }));

    it('the track plan runs: tones standing in for two devices give a mix and one track per device', async () => {
      const plan = audioTrackPlan(
        1,
        [
          { name: 'Game', volume: 1 },
          { name: 'Voice', volume: 0.5 },
        ],
        true,
      );
      const output = path.join(folder, 'tracks.mp4');
      await run(tools.ffmpeg.path, [
        '-hide_banner',
        '-loglevel',
        'error',
        '-nostdin',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'testsrc2=size=160x90:rate=10:duration=1',
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=440:sample_rate=44100:duration=1',
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=880:sample_rate=48000:duration=1',
        '-filter_complex',
        plan.filter!,
        '-map',
        '0:v',
        ...plan.tracks.flatMap((track) => ['-map', track.map]),
        ...plan.tracks.flatMap((track, index) => [`-metadata:s:a:${index}`, `title=${track.name}`]),
        '-c:v',
        'libx264',
        '-c:a',
        'aac',
        output,
      ]);
      const probed = await probeMedia(tools.ffprobe.path, output);
      const audio = probed.streams.filter((stream) => stream.type === 'audio');
      expect(audio.map((stream) => [stream.sampleRate, stream.channels])).to.deep.equal([
        [48000, 2],
        [48000, 2],
        [48000, 2],
      ]);
    });

    it('the synthetic source with separate tracks gives a mix and the tone', async () => {
      const inputs = new SyntheticCaptureSource().inputs({ width: 160, height: 90, frameRate: 10, separateAudioTracks: true });
      const output = path.join(folder, 'synthetic.mp4');
      await run(tools.ffmpeg.path, [
        '-hide_banner',
        '-loglevel',
        'error',
        '-nostdin',
        '-y',
        ...inputs.args,
        '-map',
        inputs.video,
        ...inputs.audioTracks!.flatMap((track) => ['-map', track.map]),
        '-t',
        '1',
        '-c:v',
        'libx264',
        '-c:a',
        'aac',
        output,
      ]);
      const probed = await probeMedia(tools.ffprobe.path, output);
      expect(probed.streams.map((stream) => stream.type)).to.deep.equal(['video', 'audio', 'audio']);
    });

    it('the test pattern keeps to the clock when the encode is too slow for it: frames are missed, time is not', async () => {
      // One thread of x264's slowest preset on 1080p60 encodes a few frames a second on any machine: far behind real time.
      const inputs = new SyntheticCaptureSource().inputs({ width: 1920, height: 1080, frameRate: 60 });
      const encode = FfmpegProcess.start({
        ffmpegPath: tools.ffmpeg.path,
        args: [
          '-vsync',
          'vfr',
          ...inputs.args,
          '-map',
          inputs.video,
          '-vf',
          inputs.videoFilter!,
          '-r',
          '60',
          '-c:v',
          'libx264',
          '-preset',
          'placebo',
          '-tune',
          'zerolatency',
          '-threads',
          '1',
          '-f',
          'null',
          '-',
        ],
      });
      try {
        const reports: { at: number; frame: number; seconds: number }[] = [];
        encode.onProgress((progress) => reports.push({ at: Date.now(), frame: progress.frame, seconds: progress.outTimeSeconds ?? 0 }));
        const first = await new Promise<number>((resolve) => {
          const stop = encode.onProgress((progress) => {
            if (progress.frame > 0) resolve(Date.now() - (progress.outTimeSeconds ?? 0) * 1000);
            if (progress.frame > 0) stop();
          });
        });
        while (Date.now() - first < 4000) await new Promise((resolve) => setTimeout(resolve, 100));
        const last = reports.at(-1)!;
        const elapsed = (last.at - first) / 1000;
        console.log(
          `      ${(last.frame / elapsed).toFixed(1)} frames a second encoded; ${last.seconds.toFixed(2)} s encoded after ${elapsed.toFixed(2)} s`,
        );
        expect(last.frame / elapsed, 'frames encoded a second').to.be.below(50);
        expect(last.seconds, `encoded seconds after ${elapsed.toFixed(2)} s of clock`).to.be.above(elapsed - 1);
      } finally {
        await encode.kill();
      }
    });
  });
});
