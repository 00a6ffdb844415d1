// Start with the computer on macOS: a LaunchAgent, ~/Library/LaunchAgents/app.keyframe.desktop.plist, run at login.
import os from 'node:os';
import path from 'node:path';
import type { AutostartFile } from './autostart-file.js';
import type { LaunchCommand } from './launch-command.js';

export const LAUNCH_AGENT_LABEL = 'app.keyframe.desktop';

export function macLaunchAgentFile(command: LaunchCommand, home = os.homedir()): AutostartFile {
  const ownerLine = '<!-- Written by Keyframe (start with the computer): turning the setting off removes this file. -->';
  const argumentLines = [command.executable, ...command.args].map((argument) => `    <string>${escapeXml(argument)}</string>`);
  const text = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    ownerLine,
    '<plist version="1.0">',
    '<dict>',
    '  <key>Label</key>',
    `  <string>${LAUNCH_AGENT_LABEL}</string>`,
    '  <key>ProgramArguments</key>',
    '  <array>',
    ...argumentLines,
    '  </array>',
    '  <key>RunAtLoad</key>',
    '  <true/>',
    '  <key>ProcessType</key>',
    '  <string>Interactive</string>',
    '</dict>',
    '</plist>',
    '',
  ].join('\n');
  return { path: path.join(home, 'Library', 'LaunchAgents', `${LAUNCH_AGENT_LABEL}.plist`), text, ownerLine };
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
