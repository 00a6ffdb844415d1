import { expect } from 'chai';
import {
  detectDisplays,
  findDisplay,
  maxDisplayHeight,
  parseMacDisplays,
  parseWindowsScreens,
  parseXdpyinfo,
  parseXrandr,
  toWireDisplay,
} from './displays.js';
import type { CommandResult, CommandRunner } from './system-commands.js';

// Recorded from `Xvfb :95 -screen 0 1280x720x24` (Debian 12).
const XVFB_XRANDR = `Screen 0: minimum 1 x 1, current 1280 x 720, maximum 1280 x 720
screen connected 1280x720+0+0 0mm x 0mm
   1280x720       0.00*
`;
const XVFB_XDPYINFO = `name of display:    :95
version number:    11.0
vendor string:    The X.Org Foundation
default screen number:    0
number of screens:    1

screen #0:
  dimensions:    1280x720 pixels (325x183 millimeters)
  resolution:    100x100 dots per inch
  depths (6):    24, 1, 4, 8, 16, 32
`;
// xrandr's layout on a desktop with two monitors side by side and one unplugged output.
const DESKTOP_XRANDR = `Screen 0: minimum 320 x 200, current 4480 x 1440, maximum 16384 x 16384
DP-1 connected primary 2560x1440+1920+0 (normal left inverted right x axis y axis) 597mm x 336mm
   2560x1440     59.95*+ 143.97
   1920x1080     60.00
HDMI-1 connected 1920x1080+0+180 (normal left inverted right x axis y axis) 527mm x 296mm
   1920x1080     60.00*+
DP-2 disconnected (normal left inverted right x axis y axis)
HDMI-2 connected (normal left inverted right x axis y axis)
   1920x1080     60.00 +
`;

const runner = (answers: Record<string, CommandResult | undefined>): CommandRunner & { asked: string[] } => {
  const asked: string[] = [];
  const run = async (command: string, args: readonly string[]) => {
    asked.push([command, ...args].join(' '));
    return answers[command];
  };
  return Object.assign(run, { asked });
};
const ok = (stdout: string): CommandResult => ({ stdout, stderr: '', code: 0 });

describe('display detection', () => {
  it('reads the active outputs of xrandr with their place on the desktop', () => {
    expect(parseXrandr(XVFB_XRANDR)).to.deep.equal([
      { deviceName: 'screen', deviceId: 'screen', isPrimary: true, isHdr: false, width: 1280, height: 720, x: 0, y: 0 },
    ]);
    const desktop = parseXrandr(DESKTOP_XRANDR);
    expect(
      desktop.map((display) => `${display.deviceId} ${display.width}x${display.height}+${display.x}+${display.y} ${display.isPrimary}`),
    ).to.deep.equal(['DP-1 2560x1440+1920+0 true', 'HDMI-1 1920x1080+0+180 false']);
    expect(maxDisplayHeight(desktop)).to.equal(1440);
    expect(toWireDisplay(desktop[1]!)).to.deep.equal({ deviceName: 'HDMI-1', deviceId: 'HDMI-1', isPrimary: false, isHdr: false });
  });

  it('falls back to xdpyinfo for the default screen', () => {
    expect(parseXdpyinfo(XVFB_XDPYINFO)).to.deep.equal([
      { deviceName: 'screen 0', deviceId: 'screen 0', isPrimary: true, isHdr: false, width: 1280, height: 720, x: 0, y: 0 },
    ]);
    expect(parseXdpyinfo('xdpyinfo:  unable to open display ":7".')).to.deep.equal([]);
  });

  it('reads Windows screens (one object or an array) and macOS displays', () => {
    const one = parseWindowsScreens('{"DeviceName":"\\\\\\\\.\\\\DISPLAY1","Primary":true,"X":0,"Y":0,"Width":2560,"Height":1440}');
    expect(one).to.deep.equal([
      { deviceName: 'DISPLAY1', deviceId: '\\\\.\\DISPLAY1', isPrimary: true, isHdr: false, width: 2560, height: 1440, x: 0, y: 0 },
    ]);
    const two = parseWindowsScreens(
      JSON.stringify([
        { DeviceName: '\\\\.\\DISPLAY1', Primary: false, X: -1920, Y: 0, Width: 1920, Height: 1080 },
        { DeviceName: '\\\\.\\DISPLAY2', Primary: true, X: 0, Y: 0, Width: 3840, Height: 2160 },
      ]),
    );
    expect(two.map((display) => [display.deviceName, display.x, display.isPrimary])).to.deep.equal([
      ['DISPLAY1', -1920, false],
      ['DISPLAY2', 0, true],
    ]);
    expect(parseWindowsScreens('')).to.deep.equal([]);

    const mac = parseMacDisplays(
      JSON.stringify({
        SPDisplaysDataType: [
          {
            sppci_model: 'Apple M2',
            spdisplays_ndrvs: [
              {
                _name: 'Color LCD',
                _spdisplays_displayID: '1',
                _spdisplays_pixels: '3024 x 1964',
                _spdisplays_resolution: '1512 x 982 @ 120.00Hz',
                spdisplays_main: 'spdisplays_yes',
              },
              { _name: 'DELL U2720Q', _spdisplays_displayID: '2', _spdisplays_pixels: '3840 x 2160' },
            ],
          },
        ],
      }),
    );
    expect(mac.map((display) => [display.deviceName, display.deviceId, display.width, display.height, display.isPrimary])).to.deep.equal([
      ['Color LCD', '1', 3024, 1964, true],
      ['DELL U2720Q', '2', 3840, 2160, false],
    ]);
  });

  it('picks the display the settings name, else the primary one', () => {
    const displays = parseXrandr(DESKTOP_XRANDR);
    expect(findDisplay(displays, { deviceName: 'x', deviceId: 'HDMI-1', isPrimary: false, isHdr: false })?.deviceId).to.equal('HDMI-1');
    expect(findDisplay(displays, { deviceName: 'HDMI-1', deviceId: 'gone', isPrimary: false, isHdr: false })?.deviceId).to.equal('HDMI-1');
    expect(findDisplay(displays, { deviceName: 'gone', deviceId: 'gone', isPrimary: false, isHdr: false })?.deviceId).to.equal('DP-1');
    expect(findDisplay(displays, null)?.deviceId).to.equal('DP-1');
    expect(findDisplay([], null)).to.equal(undefined);
    expect(maxDisplayHeight([])).to.equal(1080);
  });

  it('asks xrandr only with a DISPLAY, then xdpyinfo, and gives [] when neither answers', async () => {
    const linux = (variables: NodeJS.ProcessEnv) => ({ platform: 'linux' as const, home: '/h', variables });
    const none = runner({});
    expect(await detectDisplays(none, linux({}))).to.deep.equal([]);
    expect(none.asked).to.deep.equal([]);
    expect(await detectDisplays(none, linux({ DISPLAY: ':0' }))).to.deep.equal([]);
    expect(none.asked).to.deep.equal(['xrandr --query', 'xdpyinfo']);
    const onlyXdpyinfo = runner({ xdpyinfo: ok(XVFB_XDPYINFO) });
    expect((await detectDisplays(onlyXdpyinfo, linux({ DISPLAY: ':95' }))).map((display) => display.height)).to.deep.equal([720]);
    const windows = runner({
      'powershell.exe': ok('{"DeviceName":"\\\\\\\\.\\\\DISPLAY1","Primary":true,"X":0,"Y":0,"Width":1920,"Height":1080}'),
    });
    expect(await detectDisplays(windows, { platform: 'win32', home: 'C:\\Users\\a', variables: {} })).to.have.length(1);
  });
});
