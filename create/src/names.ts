// The names a new integration is known by, and the rules they follow. The key pattern is the
// manifest's own (core/src/integrations/manifest.ts): it is the `gameIntegrations` settings key.

export const KEY_PATTERN = /^[a-z][a-zA-Z0-9]*$/;
/** npm's rules for a package name: lower case, URL-safe, optionally scoped, at most 214 characters. */
const PACKAGE_NAME_PATTERN = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;
const PACKAGE_NAME_MAX = 214;
/** Where placeholder ports fall: clear of the service's 44030 and of ports games use. */
const PORT_RANGE = { first: 47000, size: 1000 };
/** A folder called `keyframe-plugin-racing` is about "racing". */
const PACKAGE_PREFIX = /^(?:keyframe-plugin-|keyframe-)/;

/** Why `key` is not a valid integration key, or `undefined` when it is. */
export function keyProblem(key: string): string | undefined {
  if (KEY_PATTERN.test(key)) return undefined;
  return `key "${key}" is not valid: it must match ${KEY_PATTERN.source}, i.e. start with a lower-case letter and hold only letters and digits (e.g. racingGame)`;
}

/** Why `name` cannot be published as an npm package, or `undefined` when it can. */
export function packageNameProblem(name: string): string | undefined {
  if (name.length > PACKAGE_NAME_MAX) return `package name "${name}" is longer than ${PACKAGE_NAME_MAX} characters`;
  if (PACKAGE_NAME_PATTERN.test(name) && !/^[._]/.test(name)) return undefined;
  return `package name "${name}" is not a valid npm package name: lower-case letters, digits and - . _ ~, optionally in a scope (e.g. keyframe-plugin-racing-game or @you/keyframe-plugin-racing-game)`;
}

/** The words of a folder name: `Racing_Game 2` → racing, game, 2. */
function wordsOf(folderName: string): string[] {
  return folderName
    .toLowerCase()
    .replace(PACKAGE_PREFIX, '')
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

/** racing-game → racingGame (may be invalid, e.g. from `2048`: the caller checks). */
export function keyFromFolder(folderName: string): string {
  return wordsOf(folderName)
    .map((word, index) => (index === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1)))
    .join('');
}

/** racing-game → "Racing game" (sentence case, like the other integrations' display names). */
export function displayNameFromFolder(folderName: string): string {
  const words = wordsOf(folderName).join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** racingGame → racing-game: file names, executables and the default package name. */
export function slugOf(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/** racingGame → RacingGameIntegration. */
export function classNameOf(key: string): string {
  const pascal = key.charAt(0).toUpperCase() + key.slice(1);
  return pascal.endsWith('Integration') ? pascal : `${pascal}Integration`;
}

/** A stable port per key, so two new integrations do not collide before their authors pick real ones. */
export function placeholderPort(key: string): number {
  let hash = 0;
  for (const character of key) hash = (hash * 31 + character.charCodeAt(0)) >>> 0;
  return PORT_RANGE.first + (hash % PORT_RANGE.size);
}

/** Why `text` is not a port number, or `undefined`. */
export function portProblem(text: string): string | undefined {
  const port = Number(text);
  return /^\d+$/.test(text) && port >= 1 && port <= 65535 ? undefined : `--port "${text}" is not a port number (1-65535)`;
}
