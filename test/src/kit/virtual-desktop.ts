// A virtual desktop for the screen-capture suites: programs on PATH, an Xvfb display, and the colour
// a recorded frame shows.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';

/** The executable `name` in a folder of PATH, or undefined. */
export function onPath(name: string): string | undefined {
  for (const folder of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(folder, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

/** Starts `Xvfb :N` on a free number from 90–99 and waits for its socket. */
export async function startXvfb(xvfb: string): Promise<{ display: string; process: ChildProcess }> {
  const free = Array.from({ length: 10 }, (_, index) => 90 + index)
    .filter((number) => !existsSync(`/tmp/.X${number}-lock`) && !existsSync(`/tmp/.X11-unix/X${number}`))
    .sort(() => Math.random() - 0.5);
  for (const number of free) {
    // -noreset: without it the server resets (root colour and all) when its last client, xsetroot, leaves.
    const child = spawn(xvfb, [`:${number}`, '-screen', '0', '1280x720x24', '-nolisten', 'tcp', '-noreset'], { stdio: 'ignore' });
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline && child.exitCode === null) {
      if (existsSync(`/tmp/.X11-unix/X${number}`)) return { display: `:${number}`, process: child };
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill();
  }
  throw new Error('no Xvfb display could be started on :90–:99');
}

/** Average R, G, B of the frame at `seconds`, from a 16x9 thumbnail. */
export async function averageColour(ffmpeg: string, file: string, seconds: number): Promise<[number, number, number]> {
  const { stdout } = await new Promise<{ stdout: Buffer }>((resolve, reject) => {
    execFile(
      ffmpeg,
      [
        '-v',
        'error',
        '-ss',
        String(seconds),
        '-i',
        file,
        '-frames:v',
        '1',
        '-vf',
        'scale=16:9',
        '-pix_fmt',
        'rgb24',
        '-f',
        'rawvideo',
        '-',
      ],
      { encoding: 'buffer' },
      (error, out) => (error ? reject(error) : resolve({ stdout: out })),
    );
  });
  const sums = [0, 0, 0];
  for (let index = 0; index < stdout.length; index++) sums[index % 3]! += stdout[index]!;
  const pixels = stdout.length / 3;
  return [sums[0]! / pixels, sums[1]! / pixels, sums[2]! / pixels];
}
