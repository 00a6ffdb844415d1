import { expect } from 'chai';
import { captureFormat, sessionEncodingArgs } from './session-encoding.js';

describe('session encoding', () => {
  it('maps the resolution setting to 16:9 sizes, no taller than the largest display', () => {
    expect(captureFormat('720p', 30, 1080)).to.deep.equal({ width: 1280, height: 720, frameRate: 30 });
    expect(captureFormat('1080p', 60, 1080)).to.deep.equal({ width: 1920, height: 1080, frameRate: 60 });
    expect(captureFormat('1440p', 60, 2160)).to.deep.include({ width: 2560, height: 1440 });
    expect(captureFormat('4K', 60, 2160)).to.deep.include({ width: 3840, height: 2160 });
    expect(captureFormat('4K', 60, 1080)).to.deep.include({ width: 1920, height: 1080 });
    expect(captureFormat('1080p', 60, 900)).to.deep.include({ width: 1600, height: 900 });
  });

  it('encodes H.264 with a keyframe every second and AAC into a fragmented MP4', () => {
    const inputs = { args: ['-f', 'x', '-i', 'a', '-f', 'y', '-i', 'b'], video: '0:v', audio: '1:a' };
    const args = sessionEncodingArgs({ inputs, format: { width: 1280, height: 720, frameRate: 30 }, crf: 23, outputPath: '/tmp/o.mp4' }).join(' ');
    expect(args).to.include('-map 0:v -map 1:a -c:v libx264 -preset veryfast -crf 23 -g 30 -keyint_min 30 -sc_threshold 0 -pix_fmt yuv420p -c:a aac');
    expect(args).to.include('-movflags +frag_keyframe+empty_moov+default_base_moof');
    expect(args.endsWith('-y /tmp/o.mp4')).to.equal(true);
  });

  it('adds silence when the source has no sound, so every file has its audio track', () => {
    const args = sessionEncodingArgs({ inputs: { args: ['-i', 'screen'], video: '0:v' }, format: { width: 640, height: 360, frameRate: 60 }, crf: 20, outputPath: 'o.mp4' });
    expect(args.join(' ')).to.include('-f lavfi -i anullsrc=channel_layout=stereo:sample_rate=48000 -map 0:v -map 1:a');
    expect(args).to.include('-shortest');
  });
});
