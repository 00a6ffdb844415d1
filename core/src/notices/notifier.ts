// Dialogs for the user (`ShowModal`). A notice raised while no frontend is connected (a broken
// settings file found at start-up) waits for the next `NewConnection` instead of being lost.
import { inject, injectable } from 'tsyringe';
import type { EventContent } from '../protocol/index.js';
import { EVENT_SINK, type EventSink } from '../protocol/event-sink.js';
import { Logger } from '../support/logger.js';

export type Modal = EventContent<'ShowModal'>;

const MAX_PENDING = 20;

@injectable()
export class Notifier {
  private readonly pending: Modal[] = [];
  private readonly logger: Logger;

  constructor(
    @inject(EVENT_SINK) private readonly events: EventSink,
    logger: Logger,
  ) {
    this.logger = logger.child('notifier');
  }

  showModal(modal: Modal): void {
    this.logger.info('showing a dialog', { title: modal.title, type: modal.type });
    if (this.events.isConnected) {
      this.events.send('ShowModal', modal);
    } else if (this.pending.length < MAX_PENDING) {
      this.pending.push(modal);
    }
  }

  /** Sends what waited for a frontend; called after the answer to `NewConnection`. */
  deliverPending(): void {
    for (const modal of this.pending.splice(0)) this.events.send('ShowModal', modal);
  }
}
