// Incremental State (the UI asks for `?state=patch`): the service sends the full State once, then StatePatch
// events. This keeps the UI's copy: each patch becomes the State it produces, so the rest of the UI only ever
// sees `State` events. A patch out of sequence, or one that does not apply, asks for the full State again.
import { applyJsonPatch, type EventContentMap } from '@keyframe/core/protocol';
import type { ServerEvent } from './server-event';

type State = EventContentMap['State'];

export class IncrementalState {
  private state: State | undefined;
  private sequence = 0;
  private resyncing = false;

  /**
   * The event the UI should see for `event` (a patch becomes the patched State); `resync` when the copy is
   * lost and the full State must be asked for; undefined for patches that come before that State arrives.
   */
  receive(event: ServerEvent): ServerEvent | 'resync' | undefined {
    if (event.method === 'State') {
      this.state = event.content;
      this.sequence = 0;
      this.resyncing = false;
      return event;
    }
    if (event.method !== 'StatePatch') return event;
    if (this.resyncing) return undefined;
    const { sequence, patch } = event.content;
    if (!this.state || sequence !== this.sequence + 1) return this.lose();
    try {
      this.state = applyJsonPatch(this.state, patch);
    } catch {
      return this.lose();
    }
    this.sequence = sequence;
    return { method: 'State', content: this.state };
  }

  private lose(): 'resync' {
    this.state = undefined;
    this.resyncing = true;
    return 'resync';
  }
}
