import { expect } from 'chai';
import Value from 'typebox/value';
import { deepFrozen, eventFrame } from './event-frame.js';
import { Settings } from './index.js';

describe('eventFrame', () => {
  it('sends frozen content as it would send a copy, in each dialect, and keeps the frame', () => {
    const settings = Value.Create(Settings) as Settings;
    settings.selectedCaptureEngineVersion = '7.1';
    const frozen = deepFrozen(structuredClone(settings));
    for (const dialect of ['spec', 'reference'] as const) {
      expect(eventFrame(dialect, 'Settings', frozen)).to.equal(eventFrame(dialect, 'Settings', settings));
      expect(eventFrame(dialect, 'Settings', frozen)).to.equal(eventFrame(dialect, 'Settings', frozen));
    }
    expect(JSON.parse(eventFrame('reference', 'Settings', frozen))).to.have.nested.property('content.selectedOBSVersion', '7.1');
    expect(() => ((frozen.inputDevices as unknown[]).length = 1)).to.throw(TypeError);
  });

  it('serialises content that is not frozen each time: a change made to it is sent', () => {
    const settings = Value.Create(Settings) as Settings;
    const before = eventFrame('spec', 'Settings', settings);
    settings.frameRate = 24;
    expect(before).to.not.include('"frameRate":24');
    expect(eventFrame('spec', 'Settings', settings)).to.include('"frameRate":24');
  });
});
