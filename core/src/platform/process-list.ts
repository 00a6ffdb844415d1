// The processes running on this machine, as {pid, executable path}, per operating system.
import { execFile } from 'node:child_process';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface RunningProcess {
  pid: number;
  /** Full path where known, else the name; Windows paths keep their backslashes. */
  executable: string;
}

export async function listProcesses(platform: NodeJS.Platform = process.platform): Promise<RunningProcess[]> {
  if (platform === 'linux') return listFromProc();
  if (platform === 'win32') return listFromTasklist();
  return listFromPs();
}

/** Linux: the `exe` link; for processes of other users, or Wine/Proton games, argv[0] tells more. */
async function listFromProc(): Promise<RunningProcess[]> {
  const entries = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  const processes = await Promise.all(entries.map(async (name): Promise<RunningProcess | undefined> => {
    const pid = Number(name);
    const argv0 = await readFile(`/proc/${name}/cmdline`, 'utf8').then((text) => text.split('\0')[0] ?? '', () => '');
    // A Windows game under Wine/Proton runs as wine-preloader; its argv[0] is the .exe path.
    if (/\.exe$/i.test(argv0)) return { pid, executable: argv0 };
    const exe = await readlink(`/proc/${name}/exe`).catch(() => undefined);
    const executable = exe?.replace(/ \(deleted\)$/, '') || argv0;
    return executable ? { pid, executable } : undefined;
  }));
  return processes.filter((entry): entry is RunningProcess => entry !== undefined);
}

async function listFromTasklist(): Promise<RunningProcess[]> {
  const { stdout } = await run('tasklist', ['/FO', 'CSV', '/NH'], { windowsHide: true, maxBuffer: 16 * 1024 * 1024 });
  return stdout.split(/\r?\n/).flatMap((line) => {
    const match = /^"([^"]+)","(\d+)"/.exec(line);
    return match ? [{ pid: Number(match[2]), executable: match[1]! }] : [];
  });
}

async function listFromPs(): Promise<RunningProcess[]> {
  const { stdout } = await run('ps', ['-axo', 'pid=,comm='], { maxBuffer: 16 * 1024 * 1024 });
  return stdout.split('\n').flatMap((line) => {
    const match = /^\s*(\d+)\s+(.+)$/.exec(line);
    return match ? [{ pid: Number(match[1]), executable: match[2]!.trim() }] : [];
  });
}

/** The file name of an executable path of any platform. */
export const executableName = (executable: string) => executable.split(/[\\/]/).pop() ?? executable;
