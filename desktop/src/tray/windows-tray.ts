// The tray on Windows: a PowerShell child running System.Windows.Forms.NotifyIcon (windows-tray-script.ts), driven
// by JSON lines (windows-tray-protocol.ts). The icons are PNG files written to a temporary folder of its own.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { powerShellCommand } from '../os/powershell.js';
import type { TrayAdapterFactory } from './tray-adapter.js';
import { encodePng, trayIconPixels } from './tray-icons.js';
import type { TrayStatus } from './tray-model.js';
import { closeMessage, parseChildLine, showMessage } from './windows-tray-protocol.js';
import { WINDOWS_TRAY_SCRIPT } from './windows-tray-script.js';

const READY_TIMEOUT_MS = 15_000;
const STATUSES: TrayStatus[] = ['idle', 'recording', 'saving'];

export const startWindowsTray: TrayAdapterFactory = async ({ onAction, log }) => {
  const iconFolder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-tray-'));
  const iconFile = (status: TrayStatus) => path.join(iconFolder, `${status}.png`);
  await Promise.all(STATUSES.map((status) => writeFile(iconFile(status), encodePng(trayIconPixels(status, 32)))));
  const { file, args } = powerShellCommand(WINDOWS_TRAY_SCRIPT, undefined, { sta: true });
  const child = spawn(file, args, { stdio: ['pipe', 'pipe', 'ignore'], windowsHide: true });
  const ready = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), READY_TIMEOUT_MS);
    child.once('error', () => resolve(false));
    child.once('exit', () => resolve(false));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const message = parseChildLine(line);
      if (message?.type === 'ready') {
        clearTimeout(timer);
        resolve(true);
      } else if (message?.type === 'action') onAction(message.action);
      else if (message?.type === 'error') log(`the tray icon failed: ${message.message}`);
    });
  });
  if (!(await ready)) {
    log('no tray icon: the PowerShell tray did not start');
    child.kill();
    await rm(iconFolder, { recursive: true, force: true });
    return undefined;
  }
  return {
    show: (model) => void child.stdin.write(showMessage(model, iconFile(model.status))),
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin.end(closeMessage());
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3000))]);
      if (child.exitCode === null) child.kill();
      await rm(iconFolder, { recursive: true, force: true });
    },
  };
};
