// Opens a folder in the file manager of the OS.
import { spawn } from 'node:child_process';
import type { CommandPlan } from './command-plan.js';

export function openFolderCommand(folder: string, platform: NodeJS.Platform = process.platform): CommandPlan {
  if (platform === 'win32') return { file: 'explorer.exe', args: [folder] };
  if (platform === 'darwin') return { file: 'open', args: [folder] };
  return { file: 'xdg-open', args: [folder] };
}

/** Started and left to run: a file manager outlives the call (explorer.exe even exits 1 on success). */
export function openFolder(folder: string): Promise<void> {
  const { file, args } = openFolderCommand(folder);
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { detached: true, stdio: 'ignore', windowsHide: false });
    child.once('error', (error) => reject(new Error(`could not open ${folder} with ${file}: ${error.message}`)));
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
