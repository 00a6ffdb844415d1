// Test pictures of on-screen game text, made with ffmpeg: messages drawn (drawtext: font, colour,
// outline, position, when) over busy moving backgrounds, optionally partly covered, written as PNG
// frames (for tapes and unit tests), as a screenText tape, or as a video (a synthetic capture for
// end-to-end tests).
// No public screenshots of the games exist to test with; these stand in for them.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { feedEntryLine, TAPE_VERSION, tapeFilesFolder } from '../tape/tape-format.js';
import { locateTool } from '../../media/ffmpeg-toolbox.js';

export type TextBackground =
  /** Moving colour bars, a gradient and a counter (testsrc2). */
  | 'colourBars'
  /** The colour bars under moving grain: every picture differs everywhere (a video shows each for three frames). */
  | 'noisyBars'
  /** The colour bars without colour, under grain: a game's death screen. */
  | 'greyedBars'
  /** Game of life cells: hard, busy edges that change every frame. */
  | 'cells';

export interface DrawnText {
  text: string;
  /** Shown from this time (inclusive) until `toMs` (exclusive). */
  fromMs: number;
  toMs: number;
  /** Centre of the text, as fractions of the picture. */
  centre: { x: number; y: number };
  /** Font size as a fraction of the picture's height. */
  size: number;
  /** An ffmpeg colour: `white`, `#c8102e`. */
  colour: string;
  outline?: { colour: string; width: number };
  /** A bold sans by default (DejaVu Sans Bold). */
  fontFile?: string;
}

/** A rectangle painted over the picture while shown: an overlay hiding part of the text. */
export interface Cover {
  fromMs: number;
  toMs: number;
  /** Fractions of the picture. */
  left: number;
  top: number;
  width: number;
  height: number;
  colour: string;
}

export interface TextScene {
  width: number;
  height: number;
  durationMs: number;
  background: TextBackground;
  texts: readonly DrawnText[];
  covers?: readonly Cover[];
}

export interface WrittenFrame {
  /** File name inside the folder. */
  frame: string;
  timeMs: number;
}

const FONT_CANDIDATES = [
  '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
  '/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf',
  '/Library/Fonts/Arial Bold.ttf',
  'C:\\Windows\\Fonts\\arialbd.ttf',
];

/** A bold sans font file this machine has; throws with what to install when there is none. */
export function boldFont(): string {
  const found = FONT_CANDIDATES.find((candidate) => existsSync(candidate));
  if (!found)
    throw new Error(`no bold font found for drawing test text (looked for ${FONT_CANDIDATES.join(', ')}): install fonts-dejavu-core`);
  return found;
}

/** One PNG every `intervalMs` (frame n at n × interval), named `000000.png`, `000001.png`, … in `folder`. */
export async function writeTextFrames(scene: TextScene, folder: string, intervalMs: number): Promise<WrittenFrame[]> {
  await mkdir(folder, { recursive: true });
  const count = Math.max(1, Math.floor(scene.durationMs / intervalMs));
  const filter = await sceneFilter(scene, folder, `1000/${intervalMs}`);
  await ffmpeg([...filter, '-frames:v', String(count), '-start_number', '0', '-f', 'image2', path.join(folder, '%06d.png')]);
  const frames = (await readdir(folder)).filter((name) => /^\d{6}\.png$/.test(name)).sort();
  return frames.map((frame) => ({ frame, timeMs: Number(frame.slice(0, 6)) * intervalMs }));
}

/**
 * Pictures a second drawn into a video, each then shown for three of its 30 frames: the screen-text
 * reader takes 5 frames a second, so each frame it reads still differs from the one before, and the
 * grain (which no encoder can predict) costs a third of the encoding.
 */
const VIDEO_PICTURE_RATE = 10;

/** The scene as an H.264 MP4 at 30 frames a second, to stand in for a capture. */
export async function writeTextVideo(scene: TextScene, file: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const filter = await sceneFilter(scene, path.dirname(file), String(VIDEO_PICTURE_RATE), ['fps=30']);
  await ffmpeg([
    ...filter,
    '-t',
    String(scene.durationMs / 1000),
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-pix_fmt',
    'yuv420p',
    '-y',
    file,
  ]);
}

/** Input and filter arguments (`after`: steps applied last); texts go through files (`textfile`), so no text needs escaping. */
async function sceneFilter(scene: TextScene, folder: string, rate: string, after: readonly string[] = []): Promise<string[]> {
  const size = `${scene.width}x${scene.height}`;
  const font = boldFont();
  const steps = [background(scene.background, size, rate)];
  for (const [index, text] of scene.texts.entries()) {
    const textFile = path.join(folder, `text-${index}.txt`);
    await writeFile(textFile, text.text);
    steps.push(
      [
        `drawtext=fontfile=${filterPath(text.fontFile ?? font)}:textfile=${filterPath(textFile)}`,
        `fontsize=${Math.round(text.size * scene.height)}:fontcolor=${text.colour}`,
        ...(text.outline ? [`borderw=${text.outline.width}:bordercolor=${text.outline.colour}`] : []),
        `x=w*${text.centre.x}-tw/2:y=h*${text.centre.y}-th/2`,
        `enable='${during(text)}'`,
      ].join(':'),
    );
  }
  for (const cover of scene.covers ?? []) {
    steps.push(
      `drawbox=x=iw*${cover.left}:y=ih*${cover.top}:w=iw*${cover.width}:h=ih*${cover.height}:color=${cover.colour}:t=fill:enable='${during(cover)}'`,
    );
  }
  return ['-f', 'lavfi', '-i', [...steps, ...after].join(',')];
}

function background(kind: TextBackground, size: string, rate: string): string {
  switch (kind) {
    case 'colourBars':
      return `testsrc2=size=${size}:rate=${rate}`;
    case 'noisyBars':
      return `testsrc2=size=${size}:rate=${rate},noise=alls=40:allf=t+u:all_seed=7`;
    case 'greyedBars':
      return `testsrc2=size=${size}:rate=${rate},hue=s=0,noise=alls=30:allf=t+u:all_seed=7`;
    case 'cells':
      return `life=size=${size}:rate=${rate}:ratio=0.5:seed=7:death_color=#203040:life_color=#e0c040`;
  }
}

const during = ({ fromMs, toMs }: { fromMs: number; toMs: number }) => `gte(t,${fromMs / 1000})*lt(t,${toMs / 1000})`;

/** A path inside a filter argument: `\`, `:` and `'` would end or escape it. */
const filterPath = (file: string) => file.replace(/\\/g, '/').replace(/([:'])/g, '\\\\$1');

function ffmpeg(args: string[]): Promise<void> {
  const ffmpegPath = locateTool('ffmpeg').path;
  return new Promise((resolve, reject) => {
    execFile(ffmpegPath, ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...args], (error, _stdout, stderr) => {
      if (error) reject(new Error(`ffmpeg could not draw the test frames: ${stderr.trim() || error.message}`));
      else resolve();
    });
  });
}

export interface ScreenTextTapeSpec {
  integration: string;
  /** The id of the screenText feed the integration opens. */
  feed: string;
  description: string;
  scene: TextScene;
  /** Time between the frames read (the tape's `t` and `frameTimeMs` of each frame). */
  intervalMs: number;
}

/**
 * A tape of a screenText feed that read the scene: its frames as PNG in `<name>.files/<feed>/`
 * and one line per frame, the recording starting at t = 0.
 */
export async function writeScreenTextTape(file: string, spec: ScreenTextTapeSpec): Promise<void> {
  const framesFolder = tapeFilesFolder(file, spec.feed);
  await rm(framesFolder, { recursive: true, force: true });
  const frames = await writeTextFrames(spec.scene, framesFolder, spec.intervalMs);
  await Promise.all(spec.scene.texts.map((_, index) => rm(path.join(framesFolder, `text-${index}.txt`))));
  const header = {
    tape: TAPE_VERSION,
    integration: spec.integration,
    recordedAt: '2026-01-01T12:00:00.000Z',
    description: spec.description,
  };
  const lines = frames.map(({ frame, timeMs }) =>
    feedEntryLine({
      t: timeMs,
      feed: spec.feed,
      kind: 'screenText',
      input: { frame, frameTimeMs: timeMs, absolutePath: path.join(framesFolder, frame) },
    }),
  );
  await writeFile(file, `${[JSON.stringify(header), ...lines].join('\n')}\n`);
}
