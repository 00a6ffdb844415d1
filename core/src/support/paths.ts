// Path comparison with one meaning everywhere: resolved, separators unified (as on the wire), case folded
// only where the file system usually ignores it (Windows, macOS). Every "same file?" and "inside that
// folder?" question in the core is answered here.
import path from 'node:path';

export interface PathRules {
  /** A form of `file` that is equal for two names of the same place; a key for maps and sets. */
  pathKey(file: string): string;
  /** The same place on disk by name (symbolic links are not followed). */
  samePath(a: string, b: string): boolean;
  /** `file` is `folder` itself or lies below it (callers that must tell the two apart add `samePath`). */
  isWithin(folder: string, file: string): boolean;
}

/** The rules of `platform`; the core uses those of the platform it runs on (the exports below). */
export function pathRules(platform: NodeJS.Platform): PathRules {
  const paths = platform === 'win32' ? path.win32 : path.posix;
  const foldsCase = platform === 'win32' || platform === 'darwin';
  const pathKey = (file: string) => {
    const normal = paths.resolve(file).replaceAll('\\', '/');
    return foldsCase ? normal.toLowerCase() : normal;
  };
  return {
    pathKey,
    samePath: (a, b) => pathKey(a) === pathKey(b),
    isWithin: (folder, file) => {
      // '' is the folder itself; '..' or another drive leads out
      const relative = path.posix.relative(pathKey(folder), pathKey(file));
      return relative !== '..' && !relative.startsWith('../') && !path.posix.isAbsolute(relative);
    },
  };
}

export const { pathKey, samePath, isWithin } = pathRules(process.platform);
