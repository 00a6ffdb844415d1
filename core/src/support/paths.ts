// Path comparison with one meaning everywhere: resolved, separators unified (as on the wire), case folded
// only where the file system usually ignores it (Windows, macOS). Every "same file?" and "inside that
// folder?" question in the core is answered here.
import path from 'node:path';

export interface PathRules {
  /** A form of `file` that is equal for two names of the same place; a key for maps and sets. */
  pathKey(file: string): string;
  /** The same place on disk by name (symbolic links are not followed). */
  samePath(a: string, b: string): boolean;
  /** `file` is `folder` itself or lies below it. */
  isWithin(folder: string, file: string): boolean;
  /** `file` lies below `folder`, not `folder` itself. */
  isStrictlyInside(folder: string, file: string): boolean;
}

/** The rules of `platform`; the core uses those of the platform it runs on (the exports below). */
export function pathRules(platform: NodeJS.Platform): PathRules {
  const paths = platform === 'win32' ? path.win32 : path.posix;
  const foldsCase = platform === 'win32' || platform === 'darwin';
  const pathKey = (file: string) => {
    const normal = paths.resolve(file).replaceAll('\\', '/');
    return foldsCase ? normal.toLowerCase() : normal;
  };
  // Below `folder` as the relative path from it: '' is the folder itself, '..' leads out.
  const relativeFrom = (folder: string, file: string) => path.posix.relative(pathKey(folder), pathKey(file));
  const leadsOut = (relative: string) => relative === '..' || relative.startsWith('../') || path.posix.isAbsolute(relative);
  return {
    pathKey,
    samePath: (a, b) => pathKey(a) === pathKey(b),
    isWithin: (folder, file) => !leadsOut(relativeFrom(folder, file)),
    isStrictlyInside: (folder, file) => {
      const relative = relativeFrom(folder, file);
      return relative !== '' && !leadsOut(relative);
    },
  };
}

export const { pathKey, samePath, isWithin, isStrictlyInside } = pathRules(process.platform);
