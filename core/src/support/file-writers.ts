// Is a file still being written by a live process? Crash recovery must never offer (or delete) a
// video another process — another Keyframe on the same folders, a second recorder — is writing.
// Where the system lists open files (/proc on Linux) that answer is exact: a video whose writer
// crashed a second ago is offered, one a stalled writer still holds is not. Elsewhere a file modified
// in the last few seconds counts as being written: a live recording grows every second.
import { readdir, readFile, readlink, realpath } from 'node:fs/promises';

/** Without /proc: a file modified this recently counts as being written. */
export const RECENT_WRITE_MS = 5000;

/** The open-for-writing flags of `/proc/<pid>/fdinfo/<fd>` (octal): O_WRONLY or O_RDWR. */
const WRITE_ACCESS = 0o3;

export class FileWriters {
  private constructor(
    /** Real path → the descriptors open on it (`<pid>/<fd>`); undefined where the system does not tell. */
    private readonly openFiles: ReadonlyMap<string, readonly string[]> | undefined,
  ) {}

  /** What is open now: one pass over /proc, reading links only (processes this user may inspect). */
  static async snapshot(): Promise<FileWriters> {
    const pids = await readdir('/proc').catch(() => undefined);
    if (pids === undefined) return new FileWriters(undefined);
    const openFiles = new Map<string, string[]>();
    for (const pid of pids.filter((name) => /^\d+$/.test(name))) {
      const fds = await readdir(`/proc/${pid}/fd`).catch(() => []);
      for (const fd of fds) {
        const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => undefined);
        if (target?.startsWith('/')) openFiles.set(target, [...(openFiles.get(target) ?? []), `${pid}/${fd}`]);
      }
    }
    return new FileWriters(openFiles);
  }

  /** Why `file` looks like it is being written (a sentence part), or undefined. */
  async busyReason(file: string, modifiedAtMs: number): Promise<string | undefined> {
    if (this.openFiles === undefined) {
      const age = Date.now() - modifiedAtMs;
      return age < RECENT_WRITE_MS ? `it was written ${Math.max(0, Math.round(age / 1000))} s ago` : undefined;
    }
    const real = await realpath(file).catch(() => file);
    for (const descriptor of this.openFiles.get(real) ?? []) {
      if (await isOpenForWriting(descriptor)) return `process ${descriptor.split('/')[0]} has it open for writing`;
    }
    return undefined;
  }
}

async function isOpenForWriting(descriptor: string): Promise<boolean> {
  const info = await readFile(`/proc/${descriptor.replace('/', '/fdinfo/')}`, 'utf8').catch(() => '');
  const flags = /^flags:\s*([0-7]+)/m.exec(info)?.[1];
  return flags !== undefined && (parseInt(flags, 8) & WRITE_ACCESS) !== 0;
}
