import { expect } from 'chai';
import { parseProbeOutput } from './probe.js';

describe('probe', () => {
  it('reads ffprobe JSON: container duration, else the longest stream', () => {
    const probed = parseProbeOutput(
      JSON.stringify({
        streams: [
          { index: 0, codec_type: 'video', codec_name: 'h264', width: 1280, height: 720, avg_frame_rate: '30/1', duration: '3.266667' },
          {
            index: 1,
            codec_type: 'audio',
            codec_name: 'aac',
            sample_rate: '48000',
            channels: 2,
            avg_frame_rate: '0/0',
            duration: '2.733333',
          },
        ],
        format: { format_name: 'mov,mp4,m4a,3gp,3g2,mj2', duration: '3.333334', size: '123456' },
      }),
    );
    expect(probed.durationSeconds).to.equal(3.333334);
    expect(probed.streams[0]).to.deep.equal({
      index: 0,
      type: 'video',
      codec: 'h264',
      width: 1280,
      height: 720,
      frameRate: 30,
      durationSeconds: 3.266667,
    });
    expect(probed.streams[1]).to.deep.equal({
      index: 1,
      type: 'audio',
      codec: 'aac',
      sampleRate: 48000,
      channels: 2,
      durationSeconds: 2.733333,
    });
    expect(parseProbeOutput(JSON.stringify({ streams: [{ codec_type: 'video', duration: '2.5' }], format: {} })).durationSeconds).to.equal(
      2.5,
    );
  });

  it("reads the video stream's keyframes from the packets of a span, from the container start, once each", () => {
    const probed = parseProbeOutput(
      JSON.stringify({
        streams: [
          { index: 0, codec_type: 'audio', codec_name: 'aac' },
          { index: 1, codec_type: 'video', codec_name: 'h264' },
        ],
        format: { start_time: '0.066667', duration: '10' },
        packets: [
          { stream_index: 1, pts_time: '3.066667', flags: 'K_' },
          { stream_index: 0, pts_time: '3.1', flags: 'K_' },
          { stream_index: 1, pts_time: '3.1', flags: '__' },
          { stream_index: 1, pts_time: '2.066667', flags: 'K_' },
          { stream_index: 1, pts_time: '2.066667', flags: 'K_' },
          { stream_index: 1, pts_time: 'N/A', flags: 'K_' },
        ],
      }),
    );
    expect(probed.keyframes!.map((time) => Number(time.toFixed(6)))).to.deep.equal([2, 3]);
    expect(parseProbeOutput(JSON.stringify({ streams: [], format: {} })).keyframes).to.equal(undefined);
  });
});
