// What the suites check about processes the service starts (Linux /proc; elsewhere nothing is found).
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

/** Processes whose command line mentions `text`, as `pid: command line`. */
export async function processesMentioning(text: string): Promise<string[]> {
  if (process.platform !== 'linux') return [];
  const found: string[] = [];
  for (const pid of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
    const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (commandLine.includes(text)) found.push(`${pid}: ${commandLine.replaceAll('\0', ' ').slice(0, 120)}`);
  }
  return found;
}

/** The nice value of a process's main thread (field 19 of /proc/<pid>/stat, counted after the command's `)`). */
export async function niceOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

const fromCore = () => createRequire(createRequire(import.meta.url).resolve('@keyframe/core/package.json'));

/** The ffmpeg the service uses when nothing else is configured (the installer package's). */
export const ffmpegPath = (): string => process.env.FFMPEG_PATH ?? (fromCore()('@ffmpeg-installer/ffmpeg') as { path: string }).path;
export const ffprobePath = (): string => process.env.FFPROBE_PATH ?? (fromCore()('@ffprobe-installer/ffprobe') as { path: string }).path;
