// The recorder's domain events as `State.preRecording`, `State.recording` and `State.encodingHealth`.
import { executableName } from '../platform/process-list.js';
import {
  formatDuration,
  formatLocalDateTime,
  toWirePath,
  type EncodeLevel,
  type EncodingHealth,
  type Recording as WireRecording,
  type State,
} from '../protocol/index.js';
import type { EncodeHealthVerdict } from '../recording/encode-health.js';
import type { RecorderEvents } from '../recording/recorder-service.js';
import type { StartedRecording } from '../recording/recording.js';
import type { TypedEvents } from '../support/typed-events.js';
import type { StateDelivery, StateTarget } from './projections.js';

export function projectRecorder(events: TypedEvents<RecorderEvents>, target: StateTarget): () => void {
  const update = (change: Partial<State>, delivery?: StateDelivery) => target.update(change, delivery);
  /** The recording with `change`, as a new object; nothing when there is no recording. */
  const updateRecording = (change: (recording: WireRecording) => Partial<WireRecording>, delivery?: StateDelivery) => {
    const recording = target.current.recording;
    if (recording) update({ recording: { ...recording, ...change(recording) } }, delivery);
  };
  const stops = [
    events.on('starting', ({ game, request }) =>
      update({
        preRecording: { game, status: 'Waiting to start', coverImageId: null, pid: request.pid ?? null, exe: request.exePath ?? null },
      }),
    ),
    events.on('startFailed', () => update({ preRecording: null })),
    // What the player waits to see goes out at once, not at the end of a burst.
    events.on('started', (recording) =>
      update(
        {
          preRecording: null,
          recording: toWireRecording(recording),
          captureInUse: { of: 'current', ...recording.media.capture },
          encodingHealth: toWireHealth(recording, recording.encodeHealth, undefined),
        },
        'prompt',
      ),
    ),
    // The health of the last recording stays after it stopped: what it did and what the next one starts at.
    events.on('encodeHealth', ({ recording, verdict, nextStepDown }) =>
      update(
        { encodingHealth: toWireHealth(recording, verdict, nextStepDown) },
        verdict.overloaded === target.current.encodingHealth?.overloaded ? 'burst' : 'prompt',
      ),
    ),
    events.on('stepDownDropped', () => {
      const health = target.current.encodingHealth;
      if (health?.nextStepDown) update({ encodingHealth: { ...health, nextStepDown: null } });
    }),
    events.on('bookmarkAdded', ({ bookmark }) =>
      updateRecording(({ bookmarks }) => ({ bookmarks: [...bookmarks, bookmark.bookmark] }), 'prompt'),
    ),
    events.on('bookmarkRemoved', ({ id }) =>
      updateRecording(({ bookmarks }) => ({ bookmarks: bookmarks.filter((bookmark) => bookmark.id !== id) })),
    ),
    events.on('ending', ({ recording, endedAt }) =>
      updateRecording(() => ({
        endTime: formatLocalDateTime(endedAt),
        duration: formatDuration((endedAt.getTime() - recording.startedAt.getTime()) / 1000),
      })),
    ),
    events.on('stopped', ({ recording }) =>
      update({ recording: null, preRecording: null, captureInUse: { of: 'last', ...recording.media.capture } }, 'prompt'),
    ),
  ];
  return () => stops.forEach((stop) => stop());
}

/** A recording's encode health on the wire; without a verdict yet: keeping up, unmeasured. */
function toWireHealth(
  recording: StartedRecording,
  verdict: EncodeHealthVerdict | undefined,
  nextStepDown: EncodeLevel | undefined,
): EncodingHealth {
  return {
    overloaded: verdict?.overloaded ?? false,
    reason: verdict?.reason ?? null,
    speed: verdict?.speed ?? null,
    framesPerSecond: verdict?.framesPerSecond ?? null,
    targetFrameRate: verdict?.targetFrameRate ?? recording.settings.frameRate,
    droppedFrames: verdict?.droppedFrames ?? 0,
    steppedDown: recording.plan.steppedDown ?? null,
    nextStepDown: nextStepDown ?? null,
  };
}

function toWireRecording(recording: StartedRecording): WireRecording {
  const { request, contentFilePath } = recording;
  return {
    startTime: formatLocalDateTime(recording.startedAt),
    endTime: null,
    filePath: contentFilePath ? toWirePath(contentFilePath) : null,
    game: recording.game,
    fileName: request.exePath ? executableName(request.exePath) : 'Unknown',
    pid: request.pid ?? null,
    isUsingGameHook: false,
    exePath: request.exePath ? toWirePath(request.exePath) : null,
    bookmarks: recording.bookmarks.map((entry) => entry.bookmark),
    coverImageId: null,
    audioTrackNames: [...recording.media.audioTrackNames],
    duration: null,
  };
}
