import { expect } from 'chai';
import type { ServiceEvent, Settings, State } from '@keyframe/core/protocol';
import { sampleItem, sampleRecording, sampleSettings, sampleState } from '../testing/samples.js';
import type { DesktopNotice, DesktopNotifier } from './desktop-notice.js';
import { NotificationCenter } from './notification-center.js';

/** The notifier adapter of a test: what it was asked to show. */
class RecordingNotifier implements DesktopNotifier {
  readonly shown: string[] = [];
  async notify({ title, body }: DesktopNotice) {
    this.shown.push(`${title}: ${body}`);
  }
  async close() {}
}

const stateEvent = (state: State): ServiceEvent => ({ method: 'State', content: state });
const updateReady = (version: string): ServiceEvent => ({
  method: 'UpdateProgress',
  content: { version, progress: 100, status: 'ready', message: 'Ready to install' },
});
const failing = {
  displayName: 'Arena Tracker',
  status: 'failed' as const,
  message: 'The game log folder does not exist: check the path in its settings.',
  lastEventAt: null,
};

/** Each kind of event once, in the order a session might bring them. */
const SESSION: ServiceEvent[] = [
  stateEvent(sampleState({ recording: sampleRecording('Arena', { pid: 4242, fileName: 'arena.exe' }) })),
  stateEvent(
    sampleState({ recording: sampleRecording('Arena', { pid: 4242 }), content: [sampleItem('b1', 'Buffer', 'Arena 2026-11-26 20-01')] }),
  ),
  stateEvent(
    sampleState({
      recording: null,
      content: [
        sampleItem('c1', 'Clip', 'Triple <kill> & run'),
        sampleItem('h1', 'Highlight', 'Best of Arena'),
        sampleItem('b1', 'Buffer', 'Arena 2026-11-26 20-01'),
      ],
      integrations: { arenaGameA: failing },
    }),
  ),
  updateReady('1.4.0'),
  updateReady('1.4.0'), // replayed to a new connection
];

function run(settings: Settings, events: ServiceEvent[] = SESSION): string[] {
  const notifier = new RecordingNotifier();
  const center = new NotificationCenter(
    sampleState({ integrations: { arenaGameA: { ...failing, status: 'active' } } }),
    settings,
    () => {},
  );
  center.attach(notifier);
  for (const event of events) center.hear(event);
  return notifier.shown;
}

describe('notifications', () => {
  it('tells of each event kind in words, with the name of the replay, clip, game, integration or version', () => {
    expect(run(sampleSettings())).to.deep.equal([
      'Recording started: Arena started: Keyframe is recording it.',
      'Replay saved: Arena 2026-11-26 20-01',
      'Clip saved: Triple <kill> & run',
      'Highlight saved: Best of Arena',
      'Recording stopped: The recording of Arena stopped and is being kept.',
      'Arena Tracker integration failed: The game log folder does not exist: check the path in its settings.',
      'Update ready: Keyframe 1.4.0 is ready: it is installed when Keyframe restarts.',
    ]);
  });

  it('leaves out each kind whose setting is off', () => {
    const without = (setting: keyof Settings) => run(sampleSettings({ [setting]: false }));
    expect(without('notifyReplaySaved').join()).to.not.include('Replay saved');
    expect(without('notifyClipSaved').filter((line) => /Clip saved|Highlight saved/.test(line))).to.deep.equal([]);
    expect(without('notifyAutoRecording').filter((line) => line.startsWith('Recording'))).to.deep.equal([]);
    expect(without('notifyIntegrationFailed').join()).to.not.include('integration failed');
    expect(without('notifyUpdateReady').join()).to.not.include('Update ready');
    expect(without('notifyReplaySaved')).to.have.length(6);
  });

  it('follows a settings change from the service, and says nothing of manual recordings or of what was there before', () => {
    const turnedOff: ServiceEvent = { method: 'Settings', content: sampleSettings({ notifyUpdateReady: false }) };
    expect(run(sampleSettings(), [turnedOff, updateReady('2.0.0')])).to.deep.equal([]);
    const manual = [stateEvent(sampleState({ recording: sampleRecording('Desktop') })), stateEvent(sampleState())];
    expect(run(sampleSettings(), manual)).to.deep.equal([]);
  });
});
