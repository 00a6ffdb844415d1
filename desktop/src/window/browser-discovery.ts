// Which Chromium-family browser opens the app window: `KEYFRAME_BROWSER`, else Edge on Windows (always
// installed there), Chrome, Chromium or Edge elsewhere. A planning function over what the machine has,
// so every OS's search is tested on any OS.
import path from 'node:path';

export interface BrowserMachine {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  homeFolder: string;
  /** True when `file` is an executable file. */
  isExecutable(file: string): boolean;
}

export interface AppBrowser {
  /** How the log and the user call it. */
  name: string;
  executable: string;
}

/** Looked for on PATH, in this order, on Linux and the other Unixes. */
const UNIX_COMMANDS = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'microsoft-edge', 'microsoft-edge-stable'];
/** `.app` bundles and their executables, in /Applications and ~/Applications. */
const MAC_BUNDLES = [
  ['Google Chrome', 'Google Chrome.app/Contents/MacOS/Google Chrome'],
  ['Chromium', 'Chromium.app/Contents/MacOS/Chromium'],
  ['Microsoft Edge', 'Microsoft Edge.app/Contents/MacOS/Microsoft Edge'],
] as const;
/** Below Program Files (both), then the per-user install folder. */
const WINDOWS_INSTALLS = [
  ['Microsoft Edge', 'Microsoft\\Edge\\Application\\msedge.exe'],
  ['Google Chrome', 'Google\\Chrome\\Application\\chrome.exe'],
] as const;

/** The browser for the app window; undefined when there is none (the UI then opens in the system browser). */
export function findAppBrowser(machine: BrowserMachine): AppBrowser | undefined {
  const chosen = machine.env.KEYFRAME_BROWSER;
  if (chosen) {
    const executable = path.isAbsolute(chosen) ? chosen : onPath(machine, chosen);
    return executable && machine.isExecutable(executable) ? { name: path.basename(chosen), executable } : undefined;
  }
  return candidates(machine).find(({ executable }) => machine.isExecutable(executable));
}

/** Every place looked in, in order. */
function candidates(machine: BrowserMachine): AppBrowser[] {
  const { platform, env } = machine;
  if (platform === 'win32') {
    const roots = [env['ProgramFiles(x86)'], env.ProgramFiles, env.LOCALAPPDATA].filter((root): root is string => Boolean(root));
    return WINDOWS_INSTALLS.flatMap(([name, file]) => roots.map((root) => ({ name, executable: path.win32.join(root, file) })));
  }
  if (platform === 'darwin') {
    const folders = ['/Applications', path.posix.join(machine.homeFolder, 'Applications')];
    return MAC_BUNDLES.flatMap(([name, file]) => folders.map((folder) => ({ name, executable: path.posix.join(folder, file) })));
  }
  return UNIX_COMMANDS.flatMap((command) =>
    pathFolders(machine).map((folder) => ({ name: command, executable: path.posix.join(folder, command) })),
  );
}

function onPath(machine: BrowserMachine, command: string): string | undefined {
  const join = machine.platform === 'win32' ? path.win32.join : path.posix.join;
  return pathFolders(machine)
    .map((folder) => join(folder, command))
    .find((file) => machine.isExecutable(file));
}

function pathFolders({ platform, env }: BrowserMachine): string[] {
  return (env.PATH ?? env.Path ?? '').split(platform === 'win32' ? ';' : ':').filter(Boolean);
}
