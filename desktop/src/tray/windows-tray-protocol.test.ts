import { expect } from 'chai';
import { sampleRecording, sampleSettings, sampleState } from '../testing/samples.js';
import { trayModel } from './tray-model.js';
import { closeMessage, parseChildLine, showMessage } from './windows-tray-protocol.js';
import { WINDOWS_TRAY_SCRIPT } from './windows-tray-script.js';

// The PowerShell child itself runs only on Windows; here its protocol and the lines it is sent are checked.
describe('Windows tray protocol', () => {
  it('sends the icon file, a tooltip NotifyIcon accepts and the menu as one JSON line', () => {
    const model = trayModel({
      state: sampleState({ recording: sampleRecording('A'.repeat(80)) }),
      settings: sampleSettings(),
      savingReplay: false,
    });
    const line = showMessage(model, 'C:\\Temp\\keyframe-tray-1\\recording.png');
    expect(line.endsWith('\n')).to.equal(true);
    expect(line.trimEnd()).to.not.include('\n');
    const message = JSON.parse(line) as { type: string; icon: string; tooltip: string; items: unknown[] };
    expect(message.type).to.equal('show');
    expect(message.icon).to.equal('C:\\Temp\\keyframe-tray-1\\recording.png');
    expect(message.tooltip).to.have.length(63);
    expect(message.items).to.deep.equal(model.items);
    expect(closeMessage()).to.equal('{"type":"close"}\n');
  });

  it("reads the child's ready, action and error lines and ignores anything else", () => {
    expect(parseChildLine('{"type":"ready"}')).to.deep.equal({ type: 'ready' });
    expect(parseChildLine('\uFEFF{"action":"quit","type":"action"}')).to.deep.equal({ type: 'action', action: 'quit' });
    expect(parseChildLine('{"type":"error","message":"no icon"}')).to.deep.equal({ type: 'error', message: 'no icon' });
    expect(parseChildLine('{"type":"action","action":"format C:"}')).to.equal(undefined);
    expect(parseChildLine('WARNING: something')).to.equal(undefined);
  });

  it('has a script that speaks that protocol: reads show and close, writes ready and the clicked action', () => {
    for (const part of [
      "$message.type -eq 'show'",
      "$message.type -eq 'close'",
      "type = 'ready'",
      "type = 'action'; action = $source.Tag",
      'NotifyIcon',
    ])
      expect(WINDOWS_TRAY_SCRIPT).to.include(part);
  });
});
