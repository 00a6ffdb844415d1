// What the update channel last said: the progress of an update in flight (replayed to a frontend
// that connects) and the release notes. Filled by the updater; empty until it has run.
import { injectable } from 'tsyringe';
import type { EventContent, ReleaseNote } from '../protocol/index.js';

@injectable()
export class UpdateStatus {
  lastProgress: EventContent<'UpdateProgress'> | undefined;
  private notes: ReleaseNote[] = [];

  async releaseNotes(): Promise<ReleaseNote[]> {
    return this.notes;
  }

  setReleaseNotes(notes: ReleaseNote[]): void {
    this.notes = notes;
  }
}
