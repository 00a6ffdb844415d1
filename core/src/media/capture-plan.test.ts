import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import type { DetectedDisplay } from '../platform/displays.js';
import { NO_AUDIO_DEVICES } from '../platform/audio-devices.js';
import { encoderThreads, planCapture, type CaptureMachine, type CapturePlanRequest } from './capture-plan.js';
import { ScreenCaptureSource, type ScreenGrabber } from './capture-source.js';
import { probeFromListings, TEST_ENCODE_SETTINGS } from './ffmpeg-toolbox.js';
import { recordingEncodingArgs } from './session-encoding.js';
import type { VideoEncoderSettings } from './video-encoder.js';

/** A build as its listings describe it: `core/test-data/ffmpeg-listings/<name>/` (see the README there). */
function listedBuild(name: string) {
  const file = (listing: string) => new URL(`../../test-data/ffmpeg-listings/${name}/${listing}.txt`, import.meta.url);
  const read = (listing: string) => readFileSync(file(listing), 'utf8');
  // `-demuxers` was recorded only where the build could be run here.
  const demuxers = existsSync(file('demuxers')) ? { demuxers: read('demuxers') } : {};
  return probeFromListings({
    version: read('version'),
    encoders: read('encoders'),
    devices: read('devices'),
    filters: read('filters'),
    ...demuxers,
  });
}

const screen = (width: number, height: number): DetectedDisplay => ({
  deviceName: 'DISPLAY1',
  deviceId: 'display-1',
  isPrimary: true,
  isHdr: false,
  x: 0,
  y: 0,
  width,
  height,
});

/** The settings the start-up test encode uses (the defaults: hardware, VBR 4–8 Mb/s), at 1080p60. */
const settings = (overrides: Partial<VideoEncoderSettings> = {}): VideoEncoderSettings => ({
  ...TEST_ENCODE_SETTINGS,
  frameRate: 60,
  width: 1920,
  height: 1080,
  ...overrides,
});

const windows = (overrides: Partial<CaptureMachine> = {}): CaptureMachine => ({
  platform: 'win32',
  variables: {},
  renderNodes: [],
  gpuVendors: [],
  displays: [screen(1920, 1080)],
  cores: 8,
  ...overrides,
});

/** The plan with each argument list as one line: the snapshot a reviewer reads. */
function snapshot(request: Omit<CapturePlanRequest, 'settings'> & { settings?: VideoEncoderSettings }) {
  const result = planCapture({ settings: settings(), ...request });
  if (result.grabber === null) throw new Error(`no screen capture: ${result.why}`);
  return {
    grab: result.grabArgs.join(' '),
    filters: result.videoFilters.join(','),
    encode: result.encoderArgs.join(' '),
    reasons: result.reasons,
    fallbacks: result.fallbacks,
  };
}

const linuxMachine = (overrides: Partial<CaptureMachine> = {}): CaptureMachine => ({
  platform: 'linux',
  variables: { DISPLAY: ':0' },
  renderNodes: [],
  gpuVendors: [],
  displays: [screen(1920, 1080)],
  cores: 8,
  ...overrides,
});

const DDAGRAB = '-f lavfi -i ddagrab=output_idx=0:framerate=60:draw_mouse=1';
const DDAGRAB_REASON = 'screen: ddagrab (Desktop Duplication): the picture stays on the GPU and exclusive-fullscreen games are captured';
const LIVE_X264_VBR =
  '-r 60 -c:v libx264 -preset superfast -tune zerolatency -threads 7 -b:v 4000k -maxrate 8000k -bufsize 8000k -g 60 -keyint_min 60 -force_key_frames expr:gte(t,n_forced) -sc_threshold 0 -pix_fmt yuv420p';
const NVENC_VBR = (id: string) =>
  `-r 60 -c:v ${id} -preset p4 -rc vbr -b:v 4000k -maxrate 8000k -bufsize 8000k -g 60 -keyint_min 60 -force_key_frames expr:gte(t,n_forced) -forced-idr 1`;
const NO_RENDER_NODE = 'H.264 (VAAPI) needs a render node (/dev/dri/renderD*), and there is none';
const SEVEN_THREADS = 'threads: 7 of 8 cores for the CPU encoder: one stays free for the game';
const CPU_AT_1080P60 =
  'warning: 1080p at 60 fps on the CPU (H.264 (x264, CPU)) because the GPU encode is not available: a game loses processor time to it; 30 fps or a lower resolution costs half';

describe('planCapture: the recording path from what the machine has', () => {
  const windows7 = listedBuild('windows-7.1-gyan-full');
  const windows4 = listedBuild('windows-N-92722-zeranoe');
  const linux4 = listedBuild('linux-4.1-johnvansickle');
  const mac7 = listedBuild('macos-7.1-homebrew');
  const nvenc = new Set(['h264_nvenc', 'hevc_nvenc', 'av1_nvenc']);

  it('fixtures: the listings parse into the builds they are named after', () => {
    expect([windows7.version, windows4.version, linux4.version, mac7.version]).to.deep.equal([
      '7.1.1-full_build-www.gyan.dev',
      'N-92722-gf22fcd4483',
      'N-47683-g0e8eb07980-static',
      '7.1.1',
    ]);
    expect([...windows7.inputFormats]).to.include.members(['dshow', 'gdigrab', 'ddagrab']);
    expect([...windows4.inputFormats])
      .to.include('gdigrab')
      .and.not.include('ddagrab');
    expect([...linux4.filters]).to.include.members(['hwupload', 'scale_vaapi']);
    expect([...mac7.inputFormats]).to.include('avfoundation');
    const debian = listedBuild('linux-5.1-debian');
    expect(debian.version).to.equal('5.1.9-0+deb12u1');
    expect([...debian.inputFormats]).to.include.members(['x11grab', 'pulse']);
  });

  it('Windows, ffmpeg 7.1, NVIDIA: ddagrab straight into NVENC, the frames never leave the GPU', () => {
    expect(snapshot({ machine: windows({ gpuVendors: ['Nvidia'] }), build: windows7, testedEncoders: nvenc })).to.deep.equal({
      grab: DDAGRAB,
      filters: '',
      encode: NVENC_VBR('h264_nvenc'),
      reasons: [
        DDAGRAB_REASON,
        'encoder: H.264 (NVIDIA NVENC) on the Nvidia GPU; it passed the start-up test encode',
        'path: Direct3D 11 frames straight into H.264 (NVIDIA NVENC); no copy to the CPU',
      ],
      fallbacks: [],
    });
  });

  it('Windows, ffmpeg 7.1, AMD, a 1440p display recorded at 1080p: AMF, scaled on the CPU, and it says why', () => {
    const machine = windows({ gpuVendors: ['AMD'], displays: [screen(2560, 1440)] });
    expect(snapshot({ machine, build: windows7, testedEncoders: new Set(['h264_amf', 'hevc_amf', 'av1_amf']) })).to.deep.equal({
      grab: DDAGRAB,
      filters: 'hwdownload,format=bgra,scale=1920:1080:force_original_aspect_ratio=decrease,pad=1920:1080:(ow-iw)/2:(oh-ih)/2,setsar=1',
      encode:
        '-r 60 -c:v h264_amf -usage transcoding -quality speed -rc vbr_peak -b:v 4000k -maxrate 8000k -bufsize 8000k -g 60 -keyint_min 60 -force_key_frames expr:gte(t,n_forced) -pix_fmt yuv420p',
      reasons: [
        DDAGRAB_REASON,
        'encoder: H.264 (AMD AMF) on the AMD GPU; it passed the start-up test encode',
        "path: frames copied to the CPU (hwdownload) to be scaled to 1920x1080: no GPU scaler here for this display's size; recording at the display's size keeps them on the GPU",
      ],
      fallbacks: [],
    });
    // At the display's own size the textures go to AMF as they are.
    const native = snapshot({
      machine,
      build: windows7,
      testedEncoders: new Set(['h264_amf']),
      settings: settings({ width: 2560, height: 1440 }),
    });
    expect(native).to.deep.include({ filters: '' });
  });

  it('Windows, ffmpeg 7.1, Intel: mapped to Quick Sync and scaled there', () => {
    const machine = windows({ gpuVendors: ['Intel'], displays: [screen(2560, 1440)] });
    expect(snapshot({ machine, build: windows7, testedEncoders: new Set(['h264_qsv', 'hevc_qsv', 'av1_qsv']) })).to.deep.equal({
      grab: DDAGRAB,
      filters: 'hwmap=derive_device=qsv,format=qsv,scale_qsv=w=1920:h=1080',
      encode:
        '-r 60 -c:v h264_qsv -preset veryfast -b:v 4000k -maxrate 8000k -bufsize 8000k -g 60 -keyint_min 60 -force_key_frames expr:gte(t,n_forced)',
      reasons: [
        DDAGRAB_REASON,
        'encoder: H.264 (Intel Quick Sync) on the Intel GPU; it passed the start-up test encode',
        'path: frames mapped to Quick Sync on the GPU, scaled to 1920x1080 there; no copy to the CPU',
      ],
      fallbacks: [],
    });
  });

  it('Windows with an Intel iGPU and an AMD card, both encoders working: the discrete AMD one', () => {
    const machine = windows({ gpuVendors: ['Intel', 'AMD'] });
    const plan = snapshot({ machine, build: windows7, testedEncoders: new Set(['h264_qsv', 'h264_amf']) });
    expect(plan).to.deep.include({ filters: '' });
    expect(plan.reasons).to.include('encoder: H.264 (AMD AMF) on the AMD GPU; it passed the start-up test encode');
  });

  it('Windows, ffmpeg 4.1 as @ffmpeg-installer ships it (gdigrab only, no hardware encoder passes): gdigrab + x264, the last resort, with both reasons', () => {
    const failed =
      'H.264 (NVIDIA NVENC) failed its start-up test encode; H.264 (Intel Quick Sync) failed its start-up test encode; H.264 (AMD AMF) failed its start-up test encode';
    const noDdagrab =
      'ffmpeg N-92722-gf22fcd4483 has no ddagrab (it needs ffmpeg 6.0 or later): gdigrab is slower and misses exclusive-fullscreen games';
    expect(snapshot({ machine: windows({ gpuVendors: ['Nvidia'] }), build: windows4, testedEncoders: new Set() })).to.deep.equal({
      grab: '-thread_queue_size 15 -f gdigrab -framerate 60 -offset_x 0 -offset_y 0 -video_size 1920x1080 -draw_mouse 1 -i desktop',
      filters: '',
      encode: LIVE_X264_VBR,
      reasons: [
        `screen: gdigrab, the last resort: ${noDdagrab}`,
        `encoder: H.264 (x264, CPU) on the CPU: ${failed}`,
        'path: CPU frames into the encoder',
        SEVEN_THREADS,
        CPU_AT_1080P60,
      ],
      fallbacks: [
        { wanted: 'ddagrab', used: 'gdigrab', why: noDdagrab },
        { wanted: 'h264_nvenc', used: 'libx264', why: failed },
      ],
    });
  });

  it('Windows, a trimmed ffmpeg 7.1 (no ddagrab filter), NVIDIA: gdigrab into NVENC, and why not ddagrab', () => {
    const trimmed = listedBuild('windows-7.1-remotion');
    const plan = snapshot({ machine: windows({ gpuVendors: ['Nvidia'] }), build: trimmed, testedEncoders: new Set(['h264_nvenc']) });
    const why =
      "ffmpeg n7.1 was built without ddagrab (full builds, such as gyan.dev's or BtbN's, have it): gdigrab is slower and misses exclusive-fullscreen games";
    expect(plan).to.deep.include({
      grab: '-thread_queue_size 15 -f gdigrab -framerate 60 -offset_x 0 -offset_y 0 -video_size 1920x1080 -draw_mouse 1 -i desktop',
      // gdigrab's frames are in memory: NVENC takes them as 4:2:0.
      encode: `${NVENC_VBR('h264_nvenc')} -pix_fmt yuv420p`,
      fallbacks: [{ wanted: 'ddagrab', used: 'gdigrab', why }],
    });
    expect(plan.reasons[0]).to.equal(`screen: gdigrab, the last resort: ${why}`);
  });

  it('Windows, ffmpeg 7.1, NVENC listed but its test encode failed: ddagrab, downloaded to x264, and why', () => {
    const plan = snapshot({ machine: windows({ gpuVendors: ['Nvidia'] }), build: windows7, testedEncoders: new Set() });
    const failed =
      'H.264 (NVIDIA NVENC) failed its start-up test encode; H.264 (Intel Quick Sync) failed its start-up test encode; H.264 (AMD AMF) failed its start-up test encode';
    expect(plan).to.deep.equal({
      grab: DDAGRAB,
      filters: 'hwdownload,format=bgra',
      encode: LIVE_X264_VBR,
      reasons: [
        DDAGRAB_REASON,
        `encoder: H.264 (x264, CPU) on the CPU: ${failed}`,
        'path: frames copied from the GPU (hwdownload) for the CPU encoder',
        SEVEN_THREADS,
        CPU_AT_1080P60,
      ],
      fallbacks: [{ wanted: 'h264_nvenc', used: 'libx264', why: failed }],
    });
  });

  it('Windows: a codec the settings name that failed its test encode falls back to a working one of the same format', () => {
    const hevcAmf = { friendlyName: 'H.265 (AMD AMF)', internalEncoderId: 'hevc_amf', isHardwareEncoder: true };
    const plan = snapshot({
      machine: windows({ gpuVendors: ['Nvidia'] }),
      build: windows7,
      testedEncoders: nvenc,
      settings: settings({ codec: hevcAmf }),
    });
    expect(plan).to.deep.include({ encode: NVENC_VBR('hevc_nvenc') });
    expect(plan.fallbacks).to.deep.equal([
      { wanted: 'hevc_amf', used: 'hevc_nvenc', why: 'H.265 (AMD AMF) failed its start-up test encode' },
    ]);
  });

  it('Windows: the settings ask for the CPU: x264 from ddagrab frames', () => {
    const plan = snapshot({
      machine: windows({ gpuVendors: ['Nvidia'] }),
      build: windows7,
      testedEncoders: nvenc,
      settings: settings({ encoder: 'cpu', rateControl: 'CRF' }),
    });
    expect(plan).to.deep.equal({
      grab: DDAGRAB,
      filters: 'hwdownload,format=bgra',
      encode:
        '-r 60 -c:v libx264 -preset superfast -tune zerolatency -threads 7 -crf 23 -g 60 -keyint_min 60 -force_key_frames expr:gte(t,n_forced) -sc_threshold 0 -pix_fmt yuv420p',
      reasons: [
        DDAGRAB_REASON,
        'encoder: H.264 (x264, CPU), as the settings ask for the CPU',
        'path: frames copied from the GPU (hwdownload) for the CPU encoder',
        SEVEN_THREADS,
      ],
      fallbacks: [],
    });
  });

  it('Linux X11 with a VAAPI render node: x11grab, uploaded and scaled on the GPU', () => {
    const machine = linuxMachine({ gpuVendors: ['Intel'], renderNodes: ['/dev/dri/renderD129'] });
    const request = {
      machine,
      build: linux4,
      testedEncoders: new Set(['h264_vaapi', 'hevc_vaapi']),
      settings: settings({ width: 1280, height: 720, frameRate: 30 }),
    };
    expect(snapshot(request)).to.deep.equal({
      grab: '-thread_queue_size 8 -f x11grab -framerate 30 -video_size 1920x1080 -draw_mouse 1 -i :0.0+0,0',
      filters: 'hwupload,scale_vaapi=w=1280:h=720:format=nv12',
      encode:
        '-vaapi_device /dev/dri/renderD129 -r 30 -c:v h264_vaapi -b:v 4000k -maxrate 8000k -bufsize 8000k -g 30 -keyint_min 30 -force_key_frames expr:gte(t,n_forced)',
      reasons: [
        'screen: x11grab on :0',
        'encoder: H.264 (VAAPI) on the Intel GPU; it passed the start-up test encode',
        'path: frames uploaded to the GPU (hwupload), converted and scaled to 1280x720 there (scale_vaapi)',
      ],
      fallbacks: [],
    });
  });

  it('Linux X11 without a GPU: x264, because there is no render node', () => {
    expect(snapshot({ machine: linuxMachine(), build: linux4, testedEncoders: new Set() })).to.deep.equal({
      grab: '-thread_queue_size 15 -f x11grab -framerate 60 -video_size 1920x1080 -draw_mouse 1 -i :0.0+0,0',
      filters: '',
      encode: LIVE_X264_VBR,
      reasons: [
        'screen: x11grab on :0',
        `encoder: H.264 (x264, CPU) on the CPU: ${NO_RENDER_NODE}`,
        'path: CPU frames into the encoder',
        SEVEN_THREADS,
        CPU_AT_1080P60,
      ],
      fallbacks: [{ wanted: 'h264_vaapi', used: 'libx264', why: NO_RENDER_NODE }],
    });
  });

  it("Linux, Debian's ffmpeg (NVENC and VAAPI listed), no GPU device files: x264, each hardware encoder with its missing device", () => {
    const plan = snapshot({
      machine: linuxMachine({ gpuVendors: ['Nvidia'] }),
      build: listedBuild('linux-5.1-debian'),
      testedEncoders: new Set(),
    });
    expect(plan.encode).to.equal(LIVE_X264_VBR);
    expect(plan.reasons[1]).to.equal(
      `encoder: H.264 (x264, CPU) on the CPU: H.264 (NVIDIA NVENC) needs the NVIDIA driver (/dev/nvidiactl), and it is not loaded; ${NO_RENDER_NODE}`,
    );
  });

  it('Linux Wayland: no X display is a clear message; with XWayland, x11grab and what it cannot see', () => {
    const wayland = { WAYLAND_DISPLAY: 'wayland-0', XDG_SESSION_TYPE: 'wayland' };
    expect(
      planCapture({ machine: linuxMachine({ variables: wayland }), build: linux4, settings: settings(), testedEncoders: new Set() }),
    ).to.deep.equal({
      grabber: null,
      why: 'this is a Wayland session without an X display: ffmpeg grabs only X11 screens (x11grab); log in with an X11 (Xorg) session to record the screen',
    });
    const xwayland = snapshot({
      machine: linuxMachine({ variables: { ...wayland, DISPLAY: ':0' } }),
      build: linux4,
      testedEncoders: new Set(),
    });
    expect(xwayland.reasons[0]).to.equal(
      'screen: x11grab on :0; this is a Wayland session: only X11 (XWayland) windows are seen, native Wayland ones stay black',
    );
  });

  it('macOS, ffmpeg 7.1: avfoundation into VideoToolbox', () => {
    const machine: CaptureMachine = {
      platform: 'darwin',
      variables: {},
      renderNodes: [],
      gpuVendors: [],
      displays: [screen(1920, 1080)],
      cores: 8,
    };
    expect(snapshot({ machine, build: mac7, testedEncoders: new Set(['h264_videotoolbox', 'hevc_videotoolbox']) })).to.deep.equal({
      grab: '-thread_queue_size 15 -f avfoundation -framerate 60 -capture_cursor 1 -i Capture screen 0',
      filters: '',
      encode:
        '-r 60 -c:v h264_videotoolbox -realtime 1 -b:v 4000k -maxrate 8000k -g 60 -keyint_min 60 -force_key_frames expr:gte(t,n_forced) -pix_fmt yuv420p',
      reasons: [
        'screen: avfoundation',
        'encoder: H.264 (Apple VideoToolbox); it passed the start-up test encode',
        'path: CPU frames into the encoder',
      ],
      fallbacks: [],
    });
  });
});

describe('encoderThreads: the CPU encoder leaves cores to the game', () => {
  it('all but one core from three up; on two, one thread for a light picture, x264 its own count for 1080p60, and why', () => {
    const at = (width: number, height: number, frameRate: number) => ({ width, height, frameRate });
    expect(encoderThreads(8, at(1920, 1080, 60))).to.deep.equal({
      count: 7,
      reason: 'threads: 7 of 8 cores for the CPU encoder: one stays free for the game',
    });
    expect(encoderThreads(3, at(1920, 1080, 60)).count).to.equal(2);
    expect(encoderThreads(2, at(1280, 720, 30))).to.deep.equal({
      count: 1,
      reason: 'threads: 1 of 2 cores for the CPU encoder: it keeps up on one, the other stays free for the game',
    });
    expect(encoderThreads(2, at(1920, 1080, 60))).to.deep.equal({
      reason: 'threads: x264 takes all 2 cores: on 2 cores one thread cannot keep up with 1080p at 60 fps',
    });
    expect(encoderThreads(1, at(1280, 720, 60)).count, '720p60 is more than one slow core keeps up with').to.equal(undefined);
  });
});

describe("a screen recording's ffmpeg arguments from its plan", () => {
  const outputs = { sessionPath: '/cache/session.mp4', frames: { pipe: 3, width: 480, height: 270, frameRate: 10 } };
  /** The arguments a recording runs: the screen source's inputs with the plan, through `recordingEncodingArgs`. */
  function recordingArgs(grabber: ScreenGrabber, request: Omit<CapturePlanRequest, 'settings'>, settings: VideoEncoderSettings): string {
    const source = new ScreenCaptureSource({
      grabber,
      displays: request.machine.displays,
      audio: NO_AUDIO_DEVICES,
      x11Display: ':0',
      planCapture: (wanted) => planCapture({ ...request, ...wanted }),
    });
    const inputs = source.inputs({ width: settings.width!, height: settings.height!, frameRate: settings.frameRate, encoding: settings });
    return recordingEncodingArgs({ inputs, video: settings, outputs }).join(' ');
  }
  const SILENCE = '-f lavfi -i anullsrc=channel_layout=stereo:sample_rate=48000 -map 0:v -map 1:a';
  const AUDIO_AND_FILE =
    '-c:a aac -b:a 128k -ar 48000 -ac 2 -metadata:s:a:0 title=Full Mix -metadata:s:a:0 handler_name=Full Mix ' +
    '-movflags +frag_keyframe+empty_moov+default_base_moof -frag_duration 1000000 -flush_packets 1 -f mp4 -y /cache/session.mp4';
  const PREVIEW =
    "-map 0:v -vf select='isnan(prev_selected_t)+gte(t-prev_selected_t,0.090)',scale=480:270,setsar=1 -r 10 -pix_fmt yuvj420p -c:v mjpeg -q:v 7 -an -f mjpeg pipe:3";

  it("this machine (Debian's ffmpeg 5.1, 2 cores, no GPU, a 720p screen) at 720p30: x11grab into x264 on one thread, the picture as it is", () => {
    const machine: CaptureMachine = { ...linuxMachine({ displays: [screen(1280, 720)] }), cores: 2 };
    const video = settings({ width: 1280, height: 720, frameRate: 30 });
    expect(recordingArgs('x11grab', { machine, build: listedBuild('linux-5.1-debian'), testedEncoders: new Set() }, video)).to.equal(
      '-vsync vfr -thread_queue_size 8 -f x11grab -framerate 30 -video_size 1280x720 -draw_mouse 1 -i :0.0+0,0 ' +
        `${SILENCE} -r 30 -c:v libx264 -preset superfast -tune zerolatency -threads 1 -b:v 4000k -maxrate 8000k -bufsize 8000k ` +
        `-g 30 -keyint_min 30 -force_key_frames expr:gte(t,n_forced) -sc_threshold 0 -pix_fmt yuv420p ${AUDIO_AND_FILE} ${PREVIEW}`,
    );
  });

  it('Windows, ffmpeg 7.1, NVIDIA: ddagrab into NVENC untouched; the preview downloads its own copy of the frames', () => {
    const request = {
      machine: windows({ gpuVendors: ['Nvidia'] }),
      build: listedBuild('windows-7.1-gyan-full'),
      testedEncoders: new Set(['h264_nvenc']),
    };
    expect(recordingArgs('gdigrab', request, settings())).to.equal(
      `-vsync vfr ${DDAGRAB} ${SILENCE} ${NVENC_VBR('h264_nvenc')} ${AUDIO_AND_FILE} ` +
        PREVIEW.replace('-vf ', '-vf hwdownload,format=bgra,'),
    );
  });
});
