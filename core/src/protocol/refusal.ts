// A refusal a command handler or service raises; the dispatcher turns it into `CommandRejected`.
import type { RejectionCode } from './index.js';

export class CommandError extends Error {
  constructor(
    readonly code: RejectionCode,
    message: string,
  ) {
    super(message);
    this.name = 'CommandError';
  }
}
