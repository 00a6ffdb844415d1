// Storage actions that wait for the user: each `StorageWarning` holds its action under a
// `warningId` until `StorageWarningConfirm` runs it (confirmed) or drops it (cancelled).
import { randomUUID } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { CommandError } from '../protocol/refusal.js';
import type { CommandParameters, EventContent } from '../protocol/index.js';
import { Logger } from '../support/logger.js';
import { EVENT_SINK, type EventSink } from '../protocol/event-sink.js';

/** The actions a warning can hold: an import over the limit, and whether the storage limit may delete old recordings. */
export type StorageWarningAction = 'import' | 'storageLimit';

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

type HeldWarning = Pick<StorageWarningRequest, 'action' | 'onConfirm' | 'onCancel'> & { event: EventContent<'StorageWarning'> };

const MAX_HELD = 50;

@injectable()
export class StorageWarnings {
  private readonly held = new Map<string, HeldWarning>();
  private readonly logger: Logger;

  constructor(
    @inject(EVENT_SINK) private readonly events: EventSink,
    logger: Logger,
  ) {
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
    const warning: EventContent<'StorageWarning'> = {
      warningId,
      title: request.title,
      description: request.description,
      confirmText: request.confirmText,
      cancelText: request.cancelText ?? 'Cancel',
      action: request.action,
      actionData: { warningId },
    };
    this.held.set(warningId, {
      action: request.action,
      onConfirm: request.onConfirm,
      ...(request.onCancel ? { onCancel: request.onCancel } : {}),
      event: warning,
    });
    this.logger.info('storage warning sent', { warningId, action: request.action, title: request.title });
    this.events.send('StorageWarning', warning);
    return warningId;
  }

  /** Whether `warningId` still waits for an answer. */
  isPending(warningId: string): boolean {
    return this.held.has(warningId);
  }

  /** Drops a warning that no longer applies, without running either step; an answer to it is then `NotFound`. */
  withdraw(warningId: string): void {
    if (this.held.delete(warningId)) this.logger.info('storage warning withdrawn', { warningId });
  }

  /**
   * Sends every unanswered warning again, under its own `warningId`. Called after the answer to
   * `NewConnection`: a warning raised while no frontend was connected, or shown on a page since reloaded, is not lost.
   */
  offerPending(): void {
    if (!this.events.isConnected) return;
    for (const { event } of this.held.values()) this.events.send('StorageWarning', event);
  }

  /** The answer to `StorageWarningConfirm`: runs or drops the held action. Throws `CommandError`. */
  async answer({ warningId, confirmed, action }: CommandParameters<'StorageWarningConfirm'>): Promise<void> {
    const warning = this.held.get(warningId);
    if (!warning)
      throw new CommandError(
        'NotFound',
        `No storage warning ${warningId} is waiting for an answer (it was answered already, or the service restarted).`,
      );
    if (warning.action !== action) {
      throw new CommandError(
        'InvalidParameters',
        `Storage warning ${warningId} is about "${warning.action}", not "${action}": send the action of the warning.`,
      );
    }
    this.held.delete(warningId);
    this.logger.info('storage warning answered', { warningId, action, confirmed });
    await (confirmed ? warning.onConfirm() : warning.onCancel?.());
  }
}
