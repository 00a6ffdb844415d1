// The audio settings of a service that finds no sound device say what to install or enable: on this
// Linux machine PulseAudio's pactl (no sound server answers here) and a full ffmpeg (the one in use has no
// PulseAudio input); in a browser of Windows or macOS, that system's own settings.
import 'reflect-metadata';
import { expect } from 'chai';
import { createRequire } from 'node:module';
import { openUi, type UiOptions } from '../kit/browser.js';
import { serviceUnderTest } from '../kit/service-under-test.js';
import { quickRecording, SLOW_UI_MS, startConfigured } from './shell-fixture.js';

/** The npm ffmpeg build, which has no PulseAudio input on Linux. */
const installerFfmpeg = (): string =>
  (createRequire(createRequire(import.meta.url).resolve('@keyframe/core/package.json'))('@ffmpeg-installer/ffmpeg') as { path: string })
    .path;

const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const MACOS = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

describe('ui: audio advice', function () {
  this.timeout(60_000);
  const under = serviceUnderTest();

  it('says what to install or enable when no sound device is found, in the words of the system', async function () {
    if (process.platform !== 'linux') this.skip();
    await startConfigured(under, quickRecording(under), {
      PULSE_SERVER: 'unix:/nonexistent/keyframe-test-pulse',
      FFMPEG_PATH: installerFfmpeg(),
    });
    /** The advice texts of the audio section: the section's own, the microphones', the speakers'. */
    const adviceIn = async (options: UiOptions = {}, screenshot?: string) => {
      const ui = await openUi({ url: new URL('#/settings/recording', under.process.url).href }, options);
      try {
        await ui.page.getByTestId('audio-advice').first().waitFor({ timeout: SLOW_UI_MS });
        if (screenshot) {
          await ui.page.getByTestId('audio-advice').first().scrollIntoViewIfNeeded();
          await ui.screenshot(screenshot);
        }
        const texts = (testId: string) => ui.page.getByTestId(testId).allInnerTexts();
        expect(ui.consoleErrors).to.deep.equal([]);
        return [await texts('audio-advice'), await texts('audio-advice-inputDevices'), await texts('audio-advice-outputDevices')];
      } finally {
        await ui.close();
      }
    };

    const [linux, linuxMicrophones] = await adviceIn({}, 'settings-audio-advice');
    expect(linux[0]).to.contain('PulseAudio').and.to.contain('PipeWire').and.to.contain('sudo apt install pulseaudio-utils');
    expect(linux[1]).to.match(
      /^The ffmpeg Keyframe uses has no PulseAudio input: it records no sound\. To record sound, .*sudo apt install ffmpeg/,
    );
    expect(linuxMicrophones, 'one piece of advice for both lists').to.deep.equal([]);

    const [, windowsMicrophones, windowsSpeakers] = await adviceIn({ userAgent: WINDOWS });
    expect(windowsMicrophones[0]).to.contain('Settings › System › Sound').and.to.contain('Privacy & security › Microphone');
    expect(windowsSpeakers[0]).to.contain('Stereo Mix');

    const [, macMicrophones, macSpeakers] = await adviceIn({ userAgent: MACOS });
    expect(macMicrophones[0]).to.contain('Privacy & Security › Microphone');
    expect(macSpeakers[0]).to.contain('BlackHole');
  });
});
