import { expect } from 'chai';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CommandPlan } from '../os/command-plan.js';
import { applyAutostart } from './autostart.js';
import { autostartCommand, type LaunchContext } from './launch-command.js';
import { desktopExec } from './linux-autostart.js';
import { macLaunchAgentFile } from './mac-launch-agent.js';
import { parseRunKeyQuery, runKeyPlan, windowsCommandLine } from './windows-run-key.js';

describe('start with the computer', () => {
  let home: string;
  let context: LaunchContext;
  const entryFile = () => path.join(home, 'config', 'autostart', 'keyframe.desktop');
  beforeEach(async () => {
    home = await mkdtemp(path.join(os.tmpdir(), 'keyframe-autostart-'));
    context = {
      env: { XDG_CONFIG_HOME: path.join(home, 'config') },
      platform: 'linux',
      nodePath: '/opt/node 20/bin/node',
      entryScript: '/home/player/Keyframe "beta"/core/dist/main.js',
      dataFolder: '/home/player/.config/keyframe',
    };
  });
  afterEach(() => rm(home, { recursive: true, force: true }));

  it('writes an XDG autostart entry that runs the app minimised, rewrites it when the install moved, and removes it', async () => {
    const on = { runOnStartup: true, startupWindowMode: 'Minimized' } as const;
    expect(await applyAutostart(on, context)).to.deep.equal({ kind: 'written', entry: entryFile() });
    const text = await readFile(entryFile(), 'utf8');
    expect(text.split('\n')).to.include.members([
      '[Desktop Entry]',
      'Type=Application',
      'Exec="/opt/node 20/bin/node" "/home/player/Keyframe \\\\"beta\\\\"/core/dist/main.js" --app --data-dir /home/player/.config/keyframe --minimised',
      'Hidden=false',
      'X-GNOME-Autostart-enabled=true',
    ]);
    expect(await applyAutostart(on, context)).to.deep.equal({ kind: 'unchanged', entry: entryFile() });

    const moved = { ...context, entryScript: '/opt/keyframe/core/dist/main.js' };
    expect((await applyAutostart({ ...on, startupWindowMode: 'Normal' }, moved)).kind).to.equal('written');
    expect(await readFile(entryFile(), 'utf8')).to.include(
      'Exec="/opt/node 20/bin/node" /opt/keyframe/core/dist/main.js --app --data-dir /home/player/.config/keyframe\n',
    );

    expect((await applyAutostart({ ...on, runOnStartup: false }, context)).kind).to.equal('removed');
    expect(existsSync(entryFile())).to.equal(false);
    expect((await applyAutostart({ ...on, runOnStartup: false }, context)).kind).to.equal('unchanged');
  });

  it('leaves a keyframe.desktop that Keyframe did not write as it is, turning the setting on or off', async () => {
    await mkdir(path.dirname(entryFile()), { recursive: true });
    const theirs = '[Desktop Entry]\nType=Application\nExec=/usr/bin/keyframe --app\n';
    await writeFile(entryFile(), theirs);
    for (const runOnStartup of [true, false]) {
      expect(await applyAutostart({ runOnStartup, startupWindowMode: 'Minimized' }, context)).to.deep.equal({
        kind: 'foreign',
        entry: entryFile(),
      });
      expect(await readFile(entryFile(), 'utf8')).to.equal(theirs);
    }
  });

  it('quotes Exec arguments as the Desktop Entry specification says', () => {
    expect(desktopExec(['/usr/bin/keyframe', '--app'])).to.equal('/usr/bin/keyframe --app');
    expect(desktopExec(['/a b/node', 'C:\\x', '100%', '$HOME', '`id`'])).to.equal(
      '"/a b/node" "C:\\\\\\\\x" 100%% "\\\\$HOME" "\\\\`id\\\\`"',
    );
  });

  it('runs the launcher of a packaged install, or else this Node with its entry script', () => {
    const packaged = {
      ...context,
      env: { KEYFRAME_INSTALL_ROOT: '/opt/keyframe' },
      exists: (file: string) => file === '/opt/keyframe/keyframe',
    };
    expect(autostartCommand(packaged, true)).to.deep.equal({
      executable: '/opt/keyframe/keyframe',
      args: ['--root', '/opt/keyframe', '--', '--data-dir', '/home/player/.config/keyframe', '--minimised'],
    });
    expect(autostartCommand(packaged, false).args).to.deep.equal([
      '--root',
      '/opt/keyframe',
      '--',
      '--data-dir',
      '/home/player/.config/keyframe',
    ]);
    const windows = { ...packaged, platform: 'win32' as const, env: { KEYFRAME_INSTALL_ROOT: 'C:\\Keyframe' }, exists: () => true };
    expect(autostartCommand(windows, false).executable).to.equal(path.join('C:\\Keyframe', 'keyframe.exe'));
    expect(autostartCommand({ ...packaged, exists: () => false }, true)).to.deep.equal({
      executable: context.nodePath,
      args: [context.entryScript, '--app', '--data-dir', '/home/player/.config/keyframe', '--minimised'],
    });
  });

  it('plans the Windows Run key value with reg.exe, and deletes only a value that starts Keyframe', async () => {
    const root = 'C:\\Users\\Player\\AppData\\Local\\Keyframe';
    const command = { executable: `${root}\\keyframe.exe`, args: ['--root', root, '--', '--minimised'] };
    const data = `"${root}\\keyframe.exe" --root C:\\Users\\Player\\AppData\\Local\\Keyframe -- --minimised`;
    const key = 'HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run';
    expect(runKeyPlan(true, command, undefined)).to.deep.equal({
      commands: [{ file: 'reg', args: ['add', key, '/v', 'Keyframe', '/t', 'REG_SZ', '/d', data, '/f'] }],
    });
    expect(runKeyPlan(true, command, data)).to.deep.equal({ commands: [] });
    expect(runKeyPlan(false, command, data)).to.deep.equal({ commands: [{ file: 'reg', args: ['delete', key, '/v', 'Keyframe', '/f'] }] });
    expect(runKeyPlan(false, command, undefined)).to.deep.equal({ commands: [] });
    expect(runKeyPlan(false, command, '"C:\\Other\\tool.exe" /keyframe')).to.deep.equal({ foreign: '"C:\\Other\\tool.exe" /keyframe' });
    expect(windowsCommandLine(['C:\\a b\\', 'say "hi"', 'plain'])).to.equal('"C:\\a b\\\\" "say \\"hi\\"" plain');

    const queryOutput = `\r\nHKEY_CURRENT_USER\\Software\\Microsoft\\Windows\\CurrentVersion\\Run\r\n    Keyframe    REG_SZ    ${data}\r\n\r\n`;
    expect(parseRunKeyQuery(queryOutput)).to.equal(data);
    const ran: CommandPlan[] = [];
    const run = async (plan: CommandPlan) => {
      ran.push(plan);
      return plan.args[0] === 'query' ? queryOutput : '';
    };
    const windowsContext = {
      ...context,
      platform: 'win32' as const,
      env: { KEYFRAME_INSTALL_ROOT: 'C:\\Users\\Player\\AppData\\Local\\Keyframe' },
      exists: () => true,
    };
    const outcome = await applyAutostart({ runOnStartup: false, startupWindowMode: 'Minimized' }, windowsContext, run);
    expect(outcome).to.deep.equal({ kind: 'removed', entry: `${key}\\Keyframe` });
    expect(ran.map((plan) => plan.args[0])).to.deep.equal(['query', 'delete']);
  });

  it('plans a macOS LaunchAgent that runs the app at login', () => {
    const agent = macLaunchAgentFile(
      { executable: '/Applications/Keyframe & Co.app/Contents/MacOS/keyframe', args: ['--app', '--minimised'] },
      '/Users/player',
    );
    expect(agent.path).to.equal('/Users/player/Library/LaunchAgents/app.keyframe.desktop.plist');
    expect(agent.text).to.include('<key>Label</key>\n  <string>app.keyframe.desktop</string>');
    expect(agent.text).to.include(
      '<array>\n    <string>/Applications/Keyframe &amp; Co.app/Contents/MacOS/keyframe</string>\n    <string>--app</string>\n    <string>--minimised</string>\n  </array>',
    );
    expect(agent.text).to.include('<key>RunAtLoad</key>\n  <true/>');
    expect(agent.text.split('\n')).to.include(agent.ownerLine);
  });
});
