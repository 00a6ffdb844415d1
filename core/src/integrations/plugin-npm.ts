// Finds and runs the npm that installs plugins: the npm shipped beside the running Node first (the
// same install the user has), then the one that runs us (`npm_execpath`), then the first on PATH.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

export interface NpmCommand {
  command: string;
  /** Arguments before npm's own (the CLI script, when npm is run with Node). */
  prefix: string[];
  /** Windows runs `npm.cmd` only through a shell. */
  shell: boolean;
}

/** Where npm was looked for, for the message when it is nowhere. */
export function npmCandidates(execPath: string = process.execPath): string[] {
  const nodeFolder = path.dirname(execPath);
  return [
    path.join(nodeFolder, 'node_modules', 'npm', 'bin', 'npm-cli.js'), // Windows installer, nvm-windows
    path.join(nodeFolder, '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'), // Unix packages, nvm, Homebrew
  ];
}

export function locateNpm(variables: NodeJS.ProcessEnv = process.env, execPath: string = process.execPath): NpmCommand | undefined {
  const nodeRun = (script: string): NpmCommand => ({ command: execPath, prefix: [script], shell: false });
  const beside = npmCandidates(execPath).find((candidate) => existsSync(candidate));
  if (beside) return nodeRun(beside);
  // Set by npm for the scripts it runs; yarn and pnpm set it to themselves.
  const running = variables.npm_execpath;
  if (running && /npm-cli\.[cm]?js$/.test(running) && existsSync(running)) return nodeRun(running);
  const windows = process.platform === 'win32';
  for (const folder of (variables.PATH ?? variables.Path ?? '').split(path.delimiter).filter(Boolean)) {
    for (const name of windows ? ['npm.cmd', 'npm.exe'] : ['npm']) {
      const candidate = path.join(folder, name);
      if (existsSync(candidate)) return { command: candidate, prefix: [], shell: windows && name.endsWith('.cmd') };
    }
  }
  return undefined;
}

export function requireNpm(): NpmCommand {
  const npm = locateNpm();
  if (npm) return npm;
  throw new Error(
    `npm was not found (looked at ${npmCandidates().join(', ')}, $npm_execpath and PATH). ` +
      'keyframe plugin install and remove use npm: install Node.js with npm (https://nodejs.org), or put npm on PATH.',
  );
}

/** Runs npm; its output when it succeeds, an error with the end of what it said when it fails. */
export function runNpm(npm: NpmCommand, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    // Through a shell (npm.cmd), a path with spaces would be split: each argument is quoted.
    const all = [...npm.prefix, ...args];
    const [command, quoted] = npm.shell ? [`"${npm.command}"`, all.map((arg) => `"${arg}"`)] : [npm.command, all];
    execFile(command, quoted, { cwd, shell: npm.shell, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (!error) return resolve(stdout);
      const said = `${stderr}${stdout}`.trim().split('\n').slice(-20).join('\n');
      reject(new Error(`npm ${args.join(' ')} failed (${error.code ?? error.message}):\n${said}`));
    });
  });
}
