// The command line of the app window's browser.

export interface BrowserArgumentsOptions {
  /** The page the window opens. */
  url: string;
  /** The window's own browser profile, in the data folder: apart from the user's browsing, one app window per data folder. */
  profileFolder: string;
  /** Controlled over the DevTools pipe (fds 3 and 4): only this process can drive it, unlike a debugging port any local program reaches. */
  pipe: boolean;
  /** The process runs as root (uid 0). */
  asRoot: boolean;
}

export function browserArguments({ url, profileFolder, pipe, asRoot }: BrowserArgumentsOptions): string[] {
  return [
    `--app=${url}`,
    `--user-data-dir=${profileFolder}`,
    '--no-first-run',
    '--no-default-browser-check',
    '--window-size=1280,800',
    // The name window managers and task bars group the window by (X11's WM_CLASS).
    '--class=Keyframe',
    ...(pipe ? ['--remote-debugging-pipe'] : []),
    // Chromium refuses to start as root with its sandbox on (it cannot drop privileges then): root is a
    // container or a CI machine, where the sandbox would not start anyway.
    ...(asRoot ? ['--no-sandbox'] : []),
  ];
}
