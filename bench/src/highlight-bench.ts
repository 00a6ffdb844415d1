// Highlight generation (CreateAiClip) for a 30 min session with 40 Kill bookmarks, through the
// protocol until `AiProgress` says done: probe, plan the windows, one ffmpeg run that seeks to each
// window, cuts and joins them (re-encoded at the clip settings), the item with its artwork. Baseline:
// the command line the service ran before it seeked (round one), built here as bare ffmpeg: one input
// decoded from the start, each window cut by trim/atrim, same windows, encoder and settings. The
// session is generated small and fast (640x360, 10 fps, x264 ultrafast, a keyframe a second, one
// audio track); the highlight is capped at 60 s, so the densest windows that fit are kept.
import { bookmarkMoments, planHighlight, probeMedia, type PlannedWindow } from '@keyframe/core/internal';
import type { Settings } from '@keyframe/core/protocol';
import { generateVideo } from '@keyframe/core/testing';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { measureAgainst, type Figure } from './harness.js';
import { startInProcessService, type InProcessService } from './in-process-service.js';

const run = promisify(execFile);
const SESSION_SECONDS = 30 * 60;
const BOOKMARKS = 40;
const RUNS = 3;

/**
 * The figure's session: five multi-kills (four kills a second apart) at 3, 9, 15, 21 and 27 min, the
 * densest moments, so the kept windows span the session as a real one's best moments do; twenty
 * single kills evenly spread between them.
 */
const spreadKills = (): number[] => [
  ...[3, 9, 15, 21, 27].flatMap((minute) => [0, 1, 2, 3].map((second) => minute * 60 + second)),
  ...Array.from({ length: 20 }, (_, index) => (index + 0.5) * 90),
];
/** The round-one bench's session: forty kills evenly spread; all ties, so the cap keeps the first five windows (the first 4 min). */
const evenKills = (): number[] =>
  Array.from({ length: BOOKMARKS }, (_, index) => Math.round((index + 0.5) * (SESSION_SECONDS / BOOKMARKS)));

/** Round one's command line: the whole source decoded from its start, each window cut out by trim/atrim. */
function decodeFromStartArgs(source: string, target: string, windows: readonly PlannedWindow[], settings: Settings): string[] {
  const time = (seconds: number) => seconds.toFixed(3);
  const cuts = windows.flatMap((window, index) => [
    `[0:v:0]trim=start=${time(window.start)}:end=${time(window.end)},setpts=PTS-STARTPTS[v${index}]`,
    `[0:a:0]atrim=start=${time(window.start)}:end=${time(window.end)},asetpts=PTS-STARTPTS[a${index}]`,
  ]);
  const joined = windows.map((_, index) => `[v${index}][a${index}]`).join('');
  // The 10 fps source is below any clip frame rate, so round one added no fps filter either.
  const graph = [...cuts, `${joined}concat=n=${windows.length}:v=1:a=1[vc][ao]`, '[vc]format=yuv420p[vo]'].join(';');
  return [
    ...['-v', 'error', '-i', source, '-filter_complex', graph, '-map', '[vo]', '-map', '[ao]'],
    ...['-c:v', 'libx264', '-preset', settings.clipPreset, '-crf', String(settings.clipQualityCpu)],
    ...['-c:a', 'aac', '-b:a', settings.clipAudioQuality, '-movflags', '+faststart', '-f', 'mp4', '-y', target],
  ];
}

/** Medians of CreateAiClip of a session marked at `times` and of round one's bare command line on it. */
async function timeHighlight(keyframe: InProcessService, source: string, times: readonly number[]) {
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
  const probed = await probeMedia(keyframe.tools.ffprobe.path, source);
  const moments = bookmarkMoments(times.map((seconds) => ({ type: 'Kill' as const, seconds })));
  const windows = planHighlight(moments, { durationSeconds: probed.durationSeconds ?? SESSION_SECONDS });
  const settings = keyframe.client.latest('Settings')!;
  const args = decodeFromStartArgs(source, path.join(keyframe.scratch, 'bare.mp4'), windows, settings);
  const bare = () => run(keyframe.tools.ffmpeg.path, args).then(() => undefined);
  return { windows, settings, ...(await measureAgainst(highlight, bare, RUNS, 0)) };
}

export async function benchHighlight(): Promise<Figure> {
  const keyframe = await startInProcessService('keyframe-bench-highlight-');
  try {
    const source = path.join(keyframe.sessionsFolder, 'session.mp4');
    await generateVideo(keyframe.tools.ffmpeg.path, source, { seconds: SESSION_SECONDS, width: 640, height: 360, frameRate: 10 });
    const spread = await timeHighlight(keyframe, source, spreadKills());
    const even = await timeHighlight(keyframe, source, evenKills());
    const span = (windows: readonly PlannedWindow[]) =>
      `${windows.length} windows, ${windows.reduce((sum, window) => sum + window.end - window.start, 0).toFixed(0)} s kept from ` +
      `${(windows[0]!.start / 60).toFixed(1)}-${(windows.at(-1)!.end / 60).toFixed(1)} min`;
    return {
      name: `highlight of a 30 min session, ${BOOKMARKS} Kill bookmarks (CreateAiClip to done)`,
      medianMs: spread.medianMs,
      baselineMedianMs: spread.baselineMedianMs,
      baseline: "round one's command line as bare ffmpeg: decoded from the start, trim per window (runs alternated)",
      ratio: spread.medianMs / spread.baselineMedianMs,
      runs: RUNS,
      note:
        `${span(spread.windows)} (multi-kills through the session); 640x360 10 fps source, x264 ${spread.settings.clipPreset}. ` +
        `Forty evenly spread kills (${span(even.windows)}): ${(even.medianMs / even.baselineMedianMs).toFixed(2)}x ` +
        `(${even.medianMs.toFixed(0)} vs ${even.baselineMedianMs.toFixed(0)} ms), bound by the encode and the artwork once the decode is gone`,
    };
  } finally {
    await keyframe.stop();
  }
}
