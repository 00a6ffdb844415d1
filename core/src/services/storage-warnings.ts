// Storage actions that wait for the user: each `StorageWarning` holds its action under a
// `warningId` until `StorageWarningConfirm` runs it (confirmed) or drops it (cancelled).
import { randomUUID } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { CommandError } from '../commands/command-error.js';
import type { CommandParameters, EventContent } from '../protocol/index.js';
import { Logger } from '../support/logger.js';
import { EVENT_SINK, type EventSink } from '../transport/event-sink.js';

/** The actions a warning can hold (protocol-gaps §6.5). */
export type StorageWarningAction = 'contentFolder' | 'import';

export interface StorageWarningRequest {
  title: string;
  description: string;
  confirmText: string;
  cancelText?: string;
  action: StorageWarningAction;
  /** Runs when the user confirms; a `CommandError` it throws is the answer to the confirmation. */
  onConfirm: () => void | Promise<void>;
  /** Runs when the user cancels, e.g. to re-send Settings so that the UI resets. */
  onCancel?: () => void | Promise<void>;
}

type HeldWarning = Pick<StorageWarningRequest, 'action' | 'onConfirm' | 'onCancel'>;

const MAX_HELD = 50;

@injectable()
export class StorageWarnings {
  private readonly held = new Map<string, HeldWarning>();
  private readonly logger: Logger;

  constructor(@inject(EVENT_SINK) private readonly events: EventSink, logger: Logger) {
    this.logger = logger.child('storage');
  }

  /** How many actions wait for an answer. */
  get pendingCount(): number {
    return this.held.size;
  }

  /** Sends a `StorageWarning` and holds its action until it is answered; returns the `warningId`. */
  warn(request: StorageWarningRequest): string {
    const warningId = randomUUID();
    if (this.held.size >= MAX_HELD) {
      // A frontend that never answers must not make the service hold closures forever.
      const oldest = this.held.keys().next().value as string;
      this.held.delete(oldest);
      this.logger.warn('storage warning dropped unanswered: too many pending', { warningId: oldest });
    }
    this.held.set(warningId, { action: request.action, onConfirm: request.onConfirm, ...(request.onCancel ? { onCancel: request.onCancel } : {}) });
    const warning: EventContent<'StorageWarning'> = {
      warningId,
      title: request.title,
      description: request.description,
      confirmText: request.confirmText,
      cancelText: request.cancelText ?? 'Cancel',
      action: request.action,
      actionData: { warningId },
    };
    this.logger.info('storage warning sent', { warningId, action: request.action, title: request.title });
    this.events.send('StorageWarning', warning);
    return warningId;
  }

  /** The answer to `StorageWarningConfirm`: runs or drops the held action. Throws `CommandError`. */
  async answer({ warningId, confirmed, action }: CommandParameters<'StorageWarningConfirm'>): Promise<void> {
    const warning = this.held.get(warningId);
    if (!warning) throw new CommandError('NotFound', `No storage warning ${warningId} is waiting for an answer (it was answered already, or the service restarted).`);
    if (warning.action !== action) {
      throw new CommandError('InvalidParameters', `Storage warning ${warningId} is about "${warning.action}", not "${action}": send the action of the warning.`);
    }
    this.held.delete(warningId);
    this.logger.info('storage warning answered', { warningId, action, confirmed });
    await (confirmed ? warning.onConfirm() : warning.onCancel?.());
  }
}
