import { expect } from 'chai';
import { macNotificationCommand } from './mac-notification.js';
import { POWERSHELL_APP_ID, windowsToastCommand } from './windows-toast.js';

const notice = { kind: 'replaySaved', title: 'Replay saved', body: `Arena "final" $(rm -rf ~) 'round'` } as const;

// Planned here, run only on their OS: the text travels as data, never as part of a script.
describe('Windows and macOS notification commands', () => {
  it('shows a Windows toast from PowerShell, the text in environment variables', () => {
    const plan = windowsToastCommand(notice, POWERSHELL_APP_ID);
    expect(plan.file).to.equal('powershell.exe');
    expect(plan.args.slice(0, -1)).to.deep.equal(['-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-EncodedCommand']);
    const script = Buffer.from(plan.args.at(-1)!, 'base64').toString('utf16le');
    expect(script).to.include('ToastNotificationManager]::CreateToastNotifier($env:KEYFRAME_NOTICE_APP_ID)');
    expect(script).to.include('CreateTextNode($env:KEYFRAME_NOTICE_BODY)');
    expect(script).to.not.include('Arena');
    expect(plan.env).to.deep.equal({
      KEYFRAME_NOTICE_TITLE: 'Replay saved',
      KEYFRAME_NOTICE_BODY: notice.body,
      KEYFRAME_NOTICE_APP_ID: POWERSHELL_APP_ID,
    });
  });

  it('shows a macOS notification with osascript, the text as arguments of the script', () => {
    expect(macNotificationCommand(notice)).to.deep.equal({
      file: '/usr/bin/osascript',
      args: [
        '-e',
        'on run argv',
        '-e',
        'display notification (item 2 of argv) with title (item 1 of argv)',
        '-e',
        'end run',
        'Replay saved',
        notice.body,
      ],
    });
  });
});
