import { expect } from 'chai';
import { inflateSync } from 'node:zlib';
import { sampleRecording, sampleSettings, sampleState } from '../testing/samples.js';
import { performTrayAction } from './tray-actions.js';
import { encodePng, toArgb, trayIconPixels } from './tray-icons.js';
import { trayModel, type TrayAction, type TrayModel } from './tray-model.js';

const entries = (model: TrayModel) =>
  Object.fromEntries(model.items.map((item) => [item.action, `${item.label}${item.enabled ? '' : ' (off)'}`]));

describe('tray model', () => {
  const settings = sampleSettings({ recordingMode: 'Hybrid' });

  it('shows idle with Start recording, and no replay to save', () => {
    const model = trayModel({ state: sampleState(), settings, savingReplay: false });
    expect(model.status).to.equal('idle');
    expect(model.tooltip).to.equal('Keyframe: not recording');
    expect(entries(model)).to.deep.equal({
      open: 'Open Keyframe',
      toggleRecording: 'Start recording',
      saveReplay: 'Save replay (off)',
      openVideos: 'Open the videos folder',
      quit: 'Quit Keyframe',
    });
  });

  it('shows a recording with Stop recording and Save replay while the replay buffer runs', () => {
    const model = trayModel({ state: sampleState({ recording: sampleRecording('Arena') }), settings, savingReplay: false });
    expect(model.status).to.equal('recording');
    expect(model.tooltip).to.equal('Keyframe: recording Arena');
    expect(entries(model)).to.include({ toggleRecording: 'Stop recording', saveReplay: 'Save replay' });
    const sessionOnly = sampleSettings({ recordingMode: 'Session' });
    expect(
      entries(trayModel({ state: sampleState({ recording: sampleRecording('Arena') }), settings: sessionOnly, savingReplay: false })),
    ).to.include({
      saveReplay: 'Save replay (off)',
    });
  });

  it('shows saving while a replay is written or a recording is being finished', () => {
    const replay = trayModel({ state: sampleState({ recording: sampleRecording('Arena') }), settings, savingReplay: true });
    expect([replay.status, entries(replay).saveReplay]).to.deep.equal(['saving', 'Save replay (off)']);
    const ending = trayModel({
      state: sampleState({ recording: sampleRecording('Arena', { endTime: '2026-11-26T20:10:00.000+00:00' }) }),
      settings,
      savingReplay: false,
    });
    expect([ending.status, ending.tooltip, entries(ending).toggleRecording]).to.deep.equal([
      'saving',
      'Keyframe: saving',
      'Start recording (off)',
    ]);
    const starting = trayModel({
      state: sampleState({ preRecording: { game: 'Arena', status: 'Waiting to start', coverImageId: null, pid: null, exe: null } }),
      settings,
      savingReplay: false,
    });
    expect(entries(starting).toggleRecording).to.equal('Starting recording… (off)');
  });

  it('runs each action: a command to the service, the window, the videos folder, quit', async () => {
    const done: string[] = [];
    let recording = false;
    const targets = {
      dispatch: async (frame: string) => void done.push(frame),
      openWindow: async () => void done.push('window'),
      quit: async () => void done.push('quit'),
      openVideosFolder: async () => void done.push('videos'),
      isRecording: () => recording,
    };
    const actions: TrayAction[] = ['open', 'toggleRecording', 'saveReplay', 'openVideos', 'quit'];
    for (const action of actions) await performTrayAction(action, targets);
    recording = true;
    await performTrayAction('toggleRecording', targets);
    expect(done).to.deep.equal([
      'window',
      '{"Method":"StartRecording","Parameters":{}}',
      '{"Method":"SaveReplayBuffer","Parameters":{}}',
      'videos',
      'quit',
      '{"Method":"StopRecording","Parameters":{}}',
    ]);
  });
});

describe('tray icons', () => {
  it('draws a round dot in the colour of each status, as ARGB for D-Bus and as a PNG', () => {
    const recording = trayIconPixels('recording', 22);
    const centre = (11 * 22 + 11) * 4;
    expect([...recording.rgba.subarray(centre, centre + 4)]).to.deep.equal([0xe5, 0x48, 0x4d, 255]);
    expect(recording.rgba[3]).to.equal(0); // the corner is transparent
    expect([...toArgb(recording).subarray(centre, centre + 4)]).to.deep.equal([255, 0xe5, 0x48, 0x4d]);
    expect(trayIconPixels('idle').rgba.equals(trayIconPixels('saving').rgba)).to.equal(false);

    const png = encodePng(trayIconPixels('saving', 16));
    expect(png.subarray(1, 4).toString('ascii')).to.equal('PNG');
    expect(png.readUInt32BE(16)).to.equal(16); // IHDR width
    const idat = png.indexOf('IDAT');
    const rows = inflateSync(png.subarray(idat + 4, idat + 4 + png.readUInt32BE(idat - 4)));
    expect(rows.length).to.equal(16 * (16 * 4 + 1));
  });
});
