// Path comparison with one meaning everywhere: resolved, separators unified, case folded where the
// file system usually ignores it (Windows, macOS).
import path from 'node:path';

const comparable = (file: string) => {
  const normal = path.resolve(file).replaceAll('\\', '/');
  return process.platform === 'win32' || process.platform === 'darwin' ? normal.toLowerCase() : normal;
};

/** The same place on disk by name (symbolic links are not followed). */
export const samePath = (a: string, b: string) => comparable(a) === comparable(b);

/** `file` is `folder` itself or lies below it. */
export const isWithin = (folder: string, file: string) => {
  const relative = path.relative(comparable(folder), comparable(file));
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};
