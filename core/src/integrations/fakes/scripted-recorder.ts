// A recorder started and stopped by the test or the tape; listeners are told as the service's are.
import type { RecorderView, RecordingInfo } from '../../sdk/game-integration.js';

export interface ScriptedRecording extends RecordingInfo {
  stoppedAt?: Date;
}

export class ScriptedRecorder implements RecorderView {
  /** Every recording so far, the running one last. */
  readonly recordings: ScriptedRecording[] = [];
  readonly #started = new Set<(recording: RecordingInfo) => void>();
  readonly #stopped = new Set<(recording: RecordingInfo) => void>();

  get current(): RecordingInfo | undefined {
    const last = this.recordings.at(-1);
    return last && !last.stoppedAt ? { startedAt: last.startedAt, game: last.game } : undefined;
  }

  onStarted(listener: (recording: RecordingInfo) => void): () => void {
    this.#started.add(listener);
    return () => this.#started.delete(listener);
  }

  onStopped(listener: (recording: RecordingInfo) => void): () => void {
    this.#stopped.add(listener);
    return () => this.#stopped.delete(listener);
  }

  /** A recording still running ends silently where the next one starts. */
  start(recording: RecordingInfo): void {
    const last = this.recordings.at(-1);
    if (last && !last.stoppedAt) last.stoppedAt = recording.startedAt;
    this.recordings.push({ ...recording });
    for (const listener of this.#started) listener(recording);
  }

  /** Stops the running recording, if any, at `at` (the tape's time; a test that does not say gets the wall clock's). */
  stop(at: Date = new Date()): void {
    const current = this.current;
    if (!current) return;
    this.recordings.at(-1)!.stoppedAt = at;
    for (const listener of this.#stopped) listener(current);
  }

  /** The index of the recording whose time span holds `at`; -1 when none does. */
  covering(at: Date): number {
    return this.recordings.findIndex((recording) => recording.startedAt <= at && (!recording.stoppedAt || at <= recording.stoppedAt));
  }
}
