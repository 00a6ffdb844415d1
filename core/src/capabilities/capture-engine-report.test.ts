import { expect } from 'chai';
import { probeFromListings, type FfmpegBuild } from '../media/ffmpeg-toolbox.js';
import { captureEngineInfo, captureEngineLine, missingCapabilities } from './capture-engine-report.js';

/** A probe from listings as `ffmpeg -encoders`, `-devices` and `-filters` print them (ddagrab is a filter). */
function probeOf(encoders: string, devices: string, filters = '') {
  return probeFromListings({ version: '', encoders, devices, filters });
}

// Rows as the bundled 2018 Linux build (@ffmpeg-installer, 4.1) prints them: no pulse, no hardware encoder.
const INSTALLER_LINUX_ENCODERS = ` V..... = Video
 ------
 V..... libx264              libx264 H.264 / AVC / MPEG-4 AVC / MPEG-4 part 10 (codec h264)
 A..... aac                  AAC (Advanced Audio Coding)
`;
const INSTALLER_LINUX_DEVICES = `Devices:
 D. = Demuxing supported
 .E = Muxing supported
 --
 DE alsa            ALSA audio output
 D  lavfi           Libavfilter virtual input device
 D  x11grab         X11 screen capture, using XCB
`;
// Rows as a distribution's 6.x prints them on Linux.
const DISTRO_LINUX_ENCODERS = `${INSTALLER_LINUX_ENCODERS} V....D h264_nvenc           NVIDIA NVENC H.264 encoder (codec h264)
 V..... h264_vaapi           H.264/AVC (VAAPI) (codec h264)
`;
const DISTRO_LINUX_DEVICES = `${INSTALLER_LINUX_DEVICES} DE pulse           Pulse audio output
`;
// Rows as a Windows build prints them: the 2018 one (gdigrab, dshow, no ddagrab) and a current one.
const OLD_WINDOWS_ENCODERS = ` V..... libx264              libx264 H.264 / AVC / MPEG-4 AVC / MPEG-4 part 10 (codec h264)
 V..... h264_nvenc           NVIDIA NVENC H.264 encoder (codec h264)
`;
const WINDOWS_DEVICES = `Devices:
 D. = Demuxing supported
 --
 D  dshow           DirectShow capture
 D  gdigrab         GDI API Windows frame grabber
 D  lavfi           Libavfilter virtual input device
`;
const CURRENT_WINDOWS_ENCODERS = `${OLD_WINDOWS_ENCODERS} V....D h264_amf             AMD AMF H.264 Encoder (codec h264)
 V..... h264_qsv             H.264 / AVC / MPEG-4 AVC / MPEG-4 part 10 (Intel Quick Sync Video acceleration) (codec h264)
`;
const CURRENT_WINDOWS_FILTERS = ` ... ddagrab           |->V       Grab Windows Desktop images using Desktop Duplication API
 ... scale             V->V       Scale the input video size and/or convert the image format.
`;
const MAC_DEVICES = `Devices:
 D. = Demuxing supported
 --
 D  avfoundation    AVFoundation input device
 D  lavfi           Libavfilter virtual input device
`;
const MAC_ENCODERS = ` V....D h264_videotoolbox    VideoToolbox H.264 Encoder (codec h264)
`;

const build = (source: FfmpegBuild['source'], version: string): FfmpegBuild => ({ source, version, path: '/opt/keyframe/ffmpeg' });

describe('What the ffmpeg in use lacks (capture-engine-report)', () => {
  it("Linux, the 2018 installer build: no PulseAudio input, no VAAPI, no NVENC; the fix is the distribution's ffmpeg, not the fetch", () => {
    const probe = probeOf(INSTALLER_LINUX_ENCODERS, INSTALLER_LINUX_DEVICES);
    expect(missingCapabilities(probe, 'linux')).to.deep.equal(['no PulseAudio input', 'no VAAPI encoder', 'no NVENC encoder']);
    const info = captureEngineInfo(build('installer-package', 'N-47683-g0e8eb07980-static'), probe, 'linux');
    expect(info.fix).to.equal("install the distribution's ffmpeg (sudo apt install ffmpeg): Keyframe picks it up from PATH");
    expect(captureEngineLine(info)).to.equal(
      'Capture engine: ffmpeg N-47683-g0e8eb07980-static (@ffmpeg-installer, /opt/keyframe/ffmpeg) — this build has no PulseAudio input, ' +
        "no VAAPI encoder, no NVENC encoder; for one that has them install the distribution's ffmpeg (sudo apt install ffmpeg): " +
        'Keyframe picks it up from PATH',
    );
  });

  it("Linux, ffmpeg-static's build (no PulseAudio either) and one from FFMPEG_PATH: the distribution's ffmpeg as well", () => {
    const probe = probeOf(INSTALLER_LINUX_ENCODERS, INSTALLER_LINUX_DEVICES);
    expect(captureEngineInfo(build('ffmpeg-static', '6.0'), probe, 'linux').fix).to.equal(
      "install the distribution's ffmpeg (sudo apt install ffmpeg): Keyframe picks it up from PATH",
    );
    expect(captureEngineInfo(build('environment', '6.0'), probe, 'linux').fix).to.equal(
      'set FFMPEG_PATH to a full ffmpeg build (sudo apt install ffmpeg)',
    );
  });

  it('Windows, the installer build: the fetch is the fix; ffmpeg-static lacking something: a full build', () => {
    const probe = probeOf(OLD_WINDOWS_ENCODERS, WINDOWS_DEVICES);
    expect(captureEngineInfo(build('installer-package', '4.1'), probe, 'win32').fix).to.equal('run: npm run fetch-ffmpeg');
    expect(captureEngineLine(captureEngineInfo(build('installer-package', '4.1'), probe, 'win32'))).to.match(
      /; for one that has them run: npm run fetch-ffmpeg$/,
    );
    expect(captureEngineInfo(build('ffmpeg-static', '6.1.1'), probe, 'win32').fix).to.equal(
      'set FFMPEG_PATH to a full ffmpeg build (winget install ffmpeg)',
    );
  });

  it("Linux, a distribution's build with pulse, VAAPI and NVENC: nothing missing, no fix, a short line", () => {
    const info = captureEngineInfo(build('path', '6.1.1'), probeOf(DISTRO_LINUX_ENCODERS, DISTRO_LINUX_DEVICES), 'linux');
    expect(info).to.deep.equal({ source: 'path', path: '/opt/keyframe/ffmpeg', version: '6.1.1', missing: [] });
    expect(captureEngineLine(info)).to.equal('Capture engine: ffmpeg 6.1.1 (PATH, /opt/keyframe/ffmpeg)');
  });

  it('Windows, an old build: no ddagrab, no AMF, no QSV (NVENC and dshow are there)', () => {
    const probe = probeOf(OLD_WINDOWS_ENCODERS, WINDOWS_DEVICES);
    expect(missingCapabilities(probe, 'win32')).to.deep.equal([
      'no ddagrab (Desktop Duplication screen input)',
      'no AMF encoder',
      'no Quick Sync (QSV) encoder',
    ]);
  });

  it('Windows, a current build: ddagrab from -filters and every hardware encoder; Linux inputs are not asked for', () => {
    expect(missingCapabilities(probeOf(CURRENT_WINDOWS_ENCODERS, WINDOWS_DEVICES, CURRENT_WINDOWS_FILTERS), 'win32')).to.deep.equal([]);
  });

  it('macOS: AVFoundation and VideoToolbox; without VideoToolbox from ffmpeg-static the fix is a full build, not the fetch', () => {
    expect(missingCapabilities(probeOf(MAC_ENCODERS, MAC_DEVICES), 'darwin')).to.deep.equal([]);
    const info = captureEngineInfo(build('ffmpeg-static', '6.1.1'), probeOf(INSTALLER_LINUX_ENCODERS, MAC_DEVICES), 'darwin');
    expect(info.missing).to.deep.equal(['no VideoToolbox encoder']);
    expect(info.fix).to.equal('set FFMPEG_PATH to a full ffmpeg build (brew install ffmpeg)');
  });

  it('a platform without a known capture path asks for nothing', () => {
    expect(missingCapabilities(probeOf('', ''), 'aix')).to.deep.equal([]);
  });
});
