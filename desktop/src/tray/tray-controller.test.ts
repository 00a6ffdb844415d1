import { expect } from 'chai';
import { sampleRecording, sampleSettings, sampleState } from '../testing/samples.js';
import type { TrayModel } from './tray-model.js';
import { TrayController } from './tray-controller.js';

describe('tray controller', () => {
  it("redraws on the service's State, Settings and replay-save events, and runs the chosen entry", async () => {
    const drawn: TrayModel[] = [];
    const sent: string[] = [];
    const controller = new TrayController(
      sampleState(),
      sampleSettings({ recordingMode: 'Session' }),
      {
        dispatch: async (frame) => void sent.push(frame),
        openWindow: async () => {},
        quit: async () => {},
        openVideosFolder: async () => {},
      },
      () => {},
    );
    controller.attach({ show: (model) => void drawn.push(model), close: async () => {} });
    controller.hear({ method: 'State', content: sampleState({ recording: sampleRecording('Arena') }) });
    controller.hear({ method: 'Settings', content: sampleSettings({ recordingMode: 'Buffer' }) });
    controller.hear({ method: 'ReplayBufferSaveStarted', content: {} });
    controller.hear({ method: 'ReplayBufferSaved', content: {} });
    controller.hear({ method: 'BookmarkCreated', content: {} });
    const saveReplay = (model: TrayModel) => model.items.find((item) => item.action === 'saveReplay')!.enabled;
    expect(drawn.map((model) => `${model.status} ${saveReplay(model)}`)).to.deep.equal([
      'idle false',
      'recording false',
      'recording true',
      'saving false',
      'recording true',
    ]);

    controller.choose('toggleRecording');
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).to.deep.equal(['{"Method":"StopRecording","Parameters":{}}']);
  });
});
