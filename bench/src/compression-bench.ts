// Compression (CompressVideo) of a 1 min 1080p library video, through the protocol until
// `CompressionProgress` says done: probe, the encode (HEVC with x265 where the build has it, at the
// clip preset and quality), the new item with its artwork. Baseline: bare ffmpeg running the same
// command line into a scratch file. The source is generated at 10 fps to keep each encode near a minute
// on a loaded machine; the ratio, not the absolute time, is what carries over.
import { compressionArgs, compressionEncoder, probeMedia } from '@keyframe/core/internal';
import { generateVideo } from '@keyframe/core/testing';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
// The service's own choice of encoder and command line, so that the baseline runs exactly the same encode.
import { measureAgainst, type Figure } from './harness.js';
import { startInProcessService } from './in-process-service.js';

const run = promisify(execFile);
const SECONDS = 60;
const RUNS = 3;

export async function benchCompression(): Promise<Figure> {
  const keyframe = await startInProcessService('keyframe-bench-compression-');
  try {
    const { ffmpeg, ffprobe } = keyframe.tools;
    const source = path.join(keyframe.sessionsFolder, 'session.mp4');
    await generateVideo(ffmpeg.path, source, { seconds: SECONDS, width: 1920, height: 1080, frameRate: 10 });
    const item = await keyframe.library.add({ type: 'Session', filePath: source, game: 'Bench', durationSeconds: SECONDS });

    const compress = async () => {
      keyframe.client.skipReceived();
      keyframe.client.send('CompressVideo', { FilePath: item.filePath });
      const last = await keyframe.client.next(
        'CompressionProgress',
        (progress) => progress.filePath === item.filePath && progress.status !== 'compressing',
        600_000,
      );
      if (last.status !== 'done') throw new Error(`the compression ended ${last.status}: ${last.message ?? ''}`);
    };
    const probed = await probeMedia(ffprobe.path, source);
    const frameRate = probed.streams.find((stream) => stream.type === 'video')?.frameRate ?? 0;
    const encoder = compressionEncoder(keyframe.client.latest('Settings')!, keyframe.client.latest('State')!.codecs, frameRate);
    const bare = () =>
      run(ffmpeg.path, ['-v', 'error', ...compressionArgs(source, path.join(keyframe.scratch, 'bare.mp4'), probed, encoder.args)]).then(
        () => undefined,
      );
    const timed = await measureAgainst(compress, bare, RUNS, 0);
    return {
      name: `compression of a ${SECONDS} s 1080p video (CompressVideo to done)`,
      ...timed,
      baseline: 'bare ffmpeg, same arguments (runs alternated)',
      ratio: timed.medianMs / timed.baselineMedianMs,
      runs: RUNS,
      note: `encoder ${encoder.entry.id} (${encoder.args.slice(0, 6).join(' ')}); 10 fps source; bound by the encoder; the service adds the probe, the size check and the artwork`,
    };
  } finally {
    await keyframe.stop();
  }
}
