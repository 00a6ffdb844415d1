// A command the desktop layer runs on the OS (reg.exe, PowerShell, osascript, a file manager), planned by a pure
// function so the exact command is tested on every OS. Arguments go to the program as they are: no shell.
import { execFile } from 'node:child_process';

export interface CommandPlan {
  file: string;
  args: string[];
  /** Added to the environment of the command. */
  env?: Record<string, string>;
}

const COMMAND_TIMEOUT_MS = 15_000;

/** Runs the command to its end; rejects with its error output when it fails. */
export function runCommand({ file, args, env }: CommandPlan): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { env: { ...process.env, ...env }, timeout: COMMAND_TIMEOUT_MS, windowsHide: true }, (error, stdout, stderr) =>
      error ? reject(new Error(`${file} failed: ${stderr.trim() || error.message}`)) : resolve(stdout),
    );
  });
}
