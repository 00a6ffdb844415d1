// Highlight generation (CreateAiClip) for a 30 min session with 40 Kill bookmarks, through the
// protocol until `AiProgress` says done: probe, plan the windows, one ffmpeg run that cuts and joins
// them (re-encoded at the clip settings), the item with its artwork. Baseline: bare ffmpeg running
// the same command line (the service's own windows and arguments) into a scratch file. The session
// is generated small and fast (640x360, 10 fps, x264 ultrafast, one audio track); the highlight is
// capped at 60 s, so the densest windows that fit are kept.
import { bookmarkMoments, highlightArgs, planHighlight, probeMedia } from '@keyframe/core/internal';
import { generateVideo } from '@keyframe/core/testing';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
// The service's own planning and command line, so that the baseline runs exactly the same encode.
import { measureAgainst, type Figure } from './harness.js';
import { startInProcessService } from './in-process-service.js';

const run = promisify(execFile);
const SESSION_SECONDS = 30 * 60;
const BOOKMARKS = 40;
const RUNS = 3;

export async function benchHighlight(): Promise<Figure> {
  const keyframe = await startInProcessService('keyframe-bench-highlight-');
  try {
    const { ffmpeg, ffprobe } = keyframe.tools;
    const source = path.join(keyframe.sessionsFolder, 'session.mp4');
    await generateVideo(ffmpeg.path, source, { seconds: SESSION_SECONDS, width: 640, height: 360, frameRate: 10 });
    // Evenly spread, as kills through a long session are.
    const times = Array.from({ length: BOOKMARKS }, (_, index) => Math.round((index + 0.5) * (SESSION_SECONDS / BOOKMARKS)));
    const bookmarks = times.map((seconds, index) => ({ id: index + 1, type: 'Kill' as const, seconds }));
    const item = await keyframe.library.add({
      type: 'Session',
      filePath: source,
      game: 'Bench',
      durationSeconds: SESSION_SECONDS,
      bookmarks,
    });

    const highlight = async () => {
      keyframe.client.skipReceived();
      keyframe.client.send('CreateAiClip', { FileName: item.fileName });
      const last = await keyframe.client.next(
        'AiProgress',
        (progress) => progress.content.id === item.id && progress.status !== 'processing',
        300_000,
      );
      if (last.status !== 'done') throw new Error(`the highlight failed: ${last.message}`);
    };
    const probed = await probeMedia(ffprobe.path, source);
    const moments = bookmarkMoments(times.map((seconds) => ({ type: 'Kill' as const, seconds })));
    const windows = planHighlight(moments, { durationSeconds: probed.durationSeconds ?? SESSION_SECONDS });
    const settings = keyframe.client.latest('Settings')!;
    const bare = () =>
      run(ffmpeg.path, ['-v', 'error', ...highlightArgs(source, path.join(keyframe.scratch, 'bare.mp4'), windows, probed, settings)]).then(
        () => undefined,
      );
    const timed = await measureAgainst(highlight, bare, RUNS, 0);
    const seconds = windows.reduce((sum, window) => sum + window.end - window.start, 0);
    return {
      name: `highlight of a 30 min session, ${BOOKMARKS} Kill bookmarks (CreateAiClip to done)`,
      ...timed,
      baseline: 'bare ffmpeg, same windows and arguments (runs alternated)',
      ratio: timed.medianMs / timed.baselineMedianMs,
      runs: RUNS,
      note:
        `${windows.length} windows, ${seconds.toFixed(0)} s kept (the 60 s cap); 640x360 10 fps source; bound by the encoder (x264 ${settings.clipPreset}), ` +
        'the decode of the source up to the last window, and the artwork after',
    };
  } finally {
    await keyframe.stop();
  }
}
