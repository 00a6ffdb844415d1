// Native file and folder pickers: zenity or kdialog on Linux, PowerShell on Windows, osascript on
// macOS. Headless machines have none; callers then ask the frontend for a path instead.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export class PickerUnavailableError extends Error {
  constructor() {
    super('No native file picker is available on this machine (install zenity or kdialog, or pass the path in the command)');
    this.name = 'PickerUnavailableError';
  }
}

export interface PickOptions {
  title: string;
  /** File name patterns for files, e.g. ['*.exe', '*']. */
  patterns?: readonly string[];
  multiple?: boolean;
}

type Command = [string, string[]];

const escapePowerShell = (text: string) => text.replaceAll("'", "''");
const escapeAppleScript = (text: string) => text.replaceAll('\\', '\\\\').replaceAll('"', '\\"');

function fileCommands(options: PickOptions, platform: NodeJS.Platform): Command[] {
  const patterns = options.patterns ?? ['*'];
  if (platform === 'win32') {
    const filter = `Files (${patterns.join(';')})|${patterns.join(';')}`;
    return [
      [
        'powershell.exe',
        [
          '-NoProfile',
          '-STA',
          '-Command',
          `Add-Type -AssemblyName System.Windows.Forms; $d = New-Object System.Windows.Forms.OpenFileDialog; $d.Title = '${escapePowerShell(options.title)}'; $d.Filter = '${escapePowerShell(filter)}'; $d.Multiselect = $${Boolean(options.multiple)}; if ($d.ShowDialog() -eq 'OK') { $d.FileNames -join [char]10 }`,
        ],
      ],
    ];
  }
  if (platform === 'darwin') {
    const many = options.multiple ? ' with multiple selections allowed' : '';
    return [
      [
        'osascript',
        [
          '-e',
          `set chosen to choose file with prompt "${escapeAppleScript(options.title)}"${many}`,
          '-e',
          'set text item delimiters to linefeed',
          '-e',
          'if class of chosen is list then',
          '-e',
          'set paths to {}',
          '-e',
          'repeat with f in chosen',
          '-e',
          'set end of paths to POSIX path of f',
          '-e',
          'end repeat',
          '-e',
          'return paths as text',
          '-e',
          'else',
          '-e',
          'return POSIX path of chosen',
          '-e',
          'end if',
        ],
      ],
    ];
  }
  return [
    [
      'zenity',
      [
        '--file-selection',
        `--title=${options.title}`,
        `--file-filter=${patterns.join(' ')}`,
        ...(options.multiple ? ['--multiple', '--separator=\n'] : []),
      ],
    ],
    [
      'kdialog',
      [
        '--getopenfilename',
        '.',
        patterns.join(' '),
        '--title',
        options.title,
        ...(options.multiple ? ['--multiple', '--separate-output'] : []),
      ],
    ],
  ];
}

function folderCommands(title: string, platform: NodeJS.Platform): Command[] {
  if (platform === 'win32') {
    return [
      [
        'powershell.exe',
        [
          '-NoProfile',
          '-STA',
          '-Command',
          `Add-Type -AssemblyName System.Windows.Forms; $d = New-Object System.Windows.Forms.FolderBrowserDialog; $d.Description = '${escapePowerShell(title)}'; if ($d.ShowDialog() -eq 'OK') { $d.SelectedPath }`,
        ],
      ],
    ];
  }
  if (platform === 'darwin') return [['osascript', ['-e', `POSIX path of (choose folder with prompt "${escapeAppleScript(title)}")`]]];
  return [
    ['zenity', ['--file-selection', '--directory', `--title=${title}`]],
    ['kdialog', ['--getexistingdirectory', '.', '--title', title]],
  ];
}

/** The first tool that exists shows the dialog; an empty answer or a cancel gives []. */
async function pick(commands: Command[]): Promise<string[]> {
  for (const [tool, args] of commands) {
    try {
      const { stdout } = await run(tool, args, { windowsHide: false, maxBuffer: 1024 * 1024 });
      return stdout
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean);
    } catch (error) {
      const failure = error as NodeJS.ErrnoException & { code?: string | number };
      if (failure.code === 'ENOENT') continue;
      // The tools exit 1 when the user cancels.
      return [];
    }
  }
  throw new PickerUnavailableError();
}

export const pickFiles = (options: PickOptions, platform: NodeJS.Platform = process.platform) => pick(fileCommands(options, platform));
export const pickFolder = async (title: string, platform: NodeJS.Platform = process.platform) =>
  (await pick(folderCommands(title, platform)))[0];
