// The current user's processes, as {pid, executable path}, per operating system: a game another
// account runs on the same machine is not ours to record.
import { execFile } from 'node:child_process';
import { close, open, read } from 'node:fs';
import { readdir, readlink, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface RunningProcess {
  pid: number;
  /** Full path where known, else the name; Windows paths keep their backslashes. */
  executable: string;
}

/** The processes of the user this service runs as (other accounts' are left out). */
export async function listProcesses(platform: NodeJS.Platform = process.platform): Promise<RunningProcess[]> {
  if (platform === 'linux') return listFromProc(process.getuid!());
  if (platform === 'win32') return listFromTasklist(windowsUser());
  return listFromPs(process.getuid!());
}

/** Wine's and Proton's loaders (`wine`, `wine64`, `wine-preloader`, `wine64-preloader`), whose argv[0] names the game. */
const WINE_LOADER = /^wine/i;

/**
 * Linux: the processes whose `/proc/<pid>` folder belongs to `uid` (the kernel gives it the process's
 * effective uid). Their `exe` link names the executable; for Wine/Proton games argv[0] tells more.
 * The command line is read only where it may tell more (a Wine loader, or no link): reading it for
 * every process, every 2 s, was about half of the service's CPU while it records.
 */
async function listFromProc(uid: number): Promise<RunningProcess[]> {
  const entries = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  const processes = await Promise.all(
    entries.map(async (name): Promise<RunningProcess | undefined> => {
      const owner = await stat(`/proc/${name}`).then(
        (info) => info.uid,
        () => undefined,
      );
      if (owner !== uid) return undefined; // another user's, or gone already
      const pid = Number(name);
      const exe = (await readlink(`/proc/${name}/exe`).catch(() => '')).replace(/ \(deleted\)$/, '');
      if (exe && !WINE_LOADER.test(path.basename(exe))) return { pid, executable: exe };
      const argv0 = await readStart(`/proc/${name}/cmdline`).then(
        (text) => text.split('\0')[0] ?? '',
        () => '',
      );
      // A Windows game under Wine/Proton runs as wine-preloader; its argv[0] is the .exe path.
      if (/\.exe$/i.test(argv0)) return { pid, executable: argv0 };
      const executable = exe || argv0;
      return executable ? { pid, executable } : undefined;
    }),
  );
  return processes.filter((entry): entry is RunningProcess => entry !== undefined);
}

const openFile = promisify(open);
const readInto = promisify(read);
const closeFile = promisify(close);
/** Room for argv[0]: a path is at most 4 KiB on Linux. */
const COMMAND_LINE_HEAD_BYTES = 4096;

/**
 * The first 4 KiB of a small file in one read: `readFile` takes five round trips to the thread pool for a
 * `/proc` file (open, stat, read until it reads nothing, close) and its FileHandle; this takes three.
 */
async function readStart(file: string): Promise<string> {
  const descriptor = await openFile(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(COMMAND_LINE_HEAD_BYTES);
    const { bytesRead } = await readInto(descriptor, buffer, 0, buffer.length, 0);
    return buffer.toString('utf8', 0, bytesRead);
  } finally {
    await closeFile(descriptor);
  }
}

/** Windows: `DOMAIN\user` of this process, as tasklist's USERNAME filter takes it. */
function windowsUser(): string {
  const { username } = os.userInfo();
  const domain = process.env.USERDOMAIN;
  return domain ? `${domain}\\${username}` : username;
}

/**
 * Windows: tasklist filtered to `user`'s processes (`/FI "USERNAME eq DOMAIN\user"`); processes of
 * other sessions' users, and system processes, are left out by tasklist itself.
 */
export function tasklistArguments(user: string): string[] {
  return ['/FO', 'CSV', '/NH', '/FI', `USERNAME eq ${user}`];
}

/** tasklist's CSV lines (`"image","pid",…`); anything else, e.g. its "INFO: No tasks…" line, is skipped. */
export function parseTasklist(stdout: string): RunningProcess[] {
  return stdout.split(/\r?\n/).flatMap((line) => {
    const match = /^"([^"]+)","(\d+)"/.exec(line);
    return match ? [{ pid: Number(match[2]), executable: match[1]! }] : [];
  });
}

async function listFromTasklist(user: string): Promise<RunningProcess[]> {
  const { stdout } = await run('tasklist', tasklistArguments(user), { windowsHide: true, maxBuffer: 16 * 1024 * 1024 });
  return parseTasklist(stdout);
}

/** macOS and other Unixes: `ps` of the processes whose real uid is `uid`, with or without a terminal. */
export function psArguments(uid: number): string[] {
  return ['-x', '-U', String(uid), '-o', 'pid=,comm='];
}

/** `ps -o pid=,comm=` lines: the pid, then the command (a full path on macOS). */
export function parsePs(stdout: string): RunningProcess[] {
  return stdout.split('\n').flatMap((line) => {
    const match = /^\s*(\d+)\s+(.+)$/.exec(line);
    return match ? [{ pid: Number(match[1]), executable: match[2]!.trim() }] : [];
  });
}

async function listFromPs(uid: number): Promise<RunningProcess[]> {
  const { stdout } = await run('ps', psArguments(uid), { maxBuffer: 16 * 1024 * 1024 });
  return parsePs(stdout);
}

/** The file name of an executable path of any platform (the whole path when it ends in a separator). */
export const executableName = (executable: string) => executable.split(/[\\/]/).pop() || executable;
