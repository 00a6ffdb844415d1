// Whether a user other than this one (or root) could change a file or folder. POSIX only: Windows has
// no mode bits, and its ACLs are not read here (see docs/writing-an-integration.md, section 10).
import { stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import path from 'node:path';

const GROUP_WRITE = 0o020;
const WORLD_WRITE = 0o002;
const STICKY = 0o1000;

export interface WriteAccessRules {
  /** A sticky folder (like /tmp) lets others add entries but not replace ours: allowed where this is true. */
  allowSticky: boolean;
}

export interface UserIds {
  /** Undefined on Windows. */
  uid: number | undefined;
  gid: number | undefined;
}
const thisUser = (): UserIds => ({ uid: process.getuid?.(), gid: process.getgid?.() });

/** Why others can write `info`, or undefined when only its owner (this user or root) can. */
export function othersCanWrite(
  info: Pick<Stats, 'mode' | 'uid' | 'gid'>,
  rules: WriteAccessRules,
  { uid, gid }: UserIds = thisUser(),
): string | undefined {
  if (uid === undefined) return undefined;
  if (info.uid !== uid && info.uid !== 0) return `it is owned by another user (uid ${info.uid})`;
  const sticky = rules.allowSticky && (info.mode & STICKY) !== 0;
  if ((info.mode & WORLD_WRITE) !== 0 && !sticky) return 'every user can write to it';
  // A user-private group (the user's own group, same number as the user: Debian's and Ubuntu's umask
  // 002) holds nobody else, so its write bit opens nothing.
  const privateGroup = info.gid === gid && gid === uid;
  if ((info.mode & GROUP_WRITE) !== 0 && !sticky && !privateGroup) return `users of group ${info.gid} can write to it`;
  return undefined;
}

/**
 * The first place on the way from `target` up to the file system root that others can change, with
 * the reason. `target` and the folders up to `strictUpTo` must be writable by their owner only; the
 * folders above may be sticky (like /tmp).
 */
export async function foreignWriteAccess(target: string, strictUpTo: string): Promise<string | undefined> {
  let strict = true;
  for (let current = path.resolve(target); ; current = path.dirname(current)) {
    const info = await stat(current).catch(() => undefined);
    const reason = info && othersCanWrite(info, { allowSticky: !strict });
    if (reason) return `${current}: ${reason}`;
    if (current === path.resolve(strictUpTo)) strict = false;
    if (path.dirname(current) === current) return undefined;
  }
}
