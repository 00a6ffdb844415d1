// From a WebSocket frame to a command handler: `ping`, JSON envelope, Method lookup, Parameters
// validation, then the handler. Every refusal is logged and answered with `CommandRejected`; the
// connection stays open and nothing a frontend sends can bring the process down.
import { inject, injectAll, injectable } from 'tsyringe';
import { CommandError } from '../commands/command-error.js';
import { COMMAND_GROUP, type CommandGroup, type CommandHandler } from '../commands/command-handlers.js';
import { Commands, describeProblems, isCommandName, type CommandName, type RejectionCode } from '../protocol/index.js';
import { Logger } from '../support/logger.js';
import { redact, redactText } from '../support/redact.js';
import { EVENT_SINK, type EventSink } from './event-sink.js';

export const MAX_COMMAND_BYTES = 1024 * 1024;
const LOGGED_FRAME_CHARS = 200;

@injectable()
export class Dispatcher {
  private readonly handlers = new Map<CommandName, CommandHandler<CommandName>>();
  private readonly logger: Logger;

  constructor(
    @injectAll(COMMAND_GROUP) groups: CommandGroup[],
    @inject(EVENT_SINK) private readonly events: EventSink,
    logger: Logger,
  ) {
    this.logger = logger.child('dispatcher');
    for (const group of groups) {
      for (const [method, handler] of Object.entries(group.handlers)) {
        if (this.handlers.has(method as CommandName)) throw new Error(`two handlers for ${method}`);
        this.handlers.set(method as CommandName, handler as CommandHandler<CommandName>);
      }
    }
  }

  hasHandler(method: CommandName): boolean {
    return this.handlers.has(method);
  }

  /** Handles one frame; never throws. Resolves when the command's handler has finished. */
  async handle(frame: Buffer | string, isBinary = false): Promise<void> {
    if (isBinary) return this.reject(null, 'MalformedMessage', 'Binary frames are not accepted: send commands as JSON text');
    const byteLength = typeof frame === 'string' ? Buffer.byteLength(frame) : frame.length;
    if (byteLength > MAX_COMMAND_BYTES) {
      return this.reject(null, 'MalformedMessage', `Frame of ${byteLength} bytes refused: commands are limited to ${MAX_COMMAND_BYTES} bytes`);
    }
    const text = frame.toString();
    if (text === 'ping') return this.events.send('pong', {});
    if (text.trim() === '') return this.reject(null, 'MalformedMessage', 'Empty frame: expected a JSON object {Method, Parameters}');

    let envelope: unknown;
    try {
      envelope = JSON.parse(text);
    } catch (error) {
      return this.reject(null, 'MalformedMessage', `Not JSON (${(error as Error).message}): expected {Method, Parameters}`, text);
    }
    if (envelope === null || typeof envelope !== 'object' || Array.isArray(envelope)) {
      return this.reject(null, 'MalformedMessage', 'Expected a JSON object {Method, Parameters}', text);
    }
    const { Method: method, Parameters: parameters } = envelope as Record<string, unknown>;
    if (typeof method !== 'string' || method === '') {
      return this.reject(null, 'MalformedMessage', 'The message has no Method (a non-empty string, capital M)', text);
    }
    if (!isCommandName(method)) return this.reject(method, 'UnknownMethod', `Unknown command ${JSON.stringify(method.slice(0, 100))}`);

    const values = parameters ?? {};
    const problems = describeProblems(Commands[method].parameters, values);
    if (problems.length > 0) return this.reject(method, 'InvalidParameters', `Invalid Parameters for ${method}: ${problems.join('; ')}`);

    const handler = this.handlers.get(method);
    if (!handler) return this.reject(method, 'Unavailable', `${method} is not available in this version of Keyframe yet`);

    this.logger.debug('command', { method, parameters: redact(values) });
    try {
      await handler(values as never);
    } catch (error) {
      if (error instanceof CommandError) return this.reject(method, error.code, error.message);
      this.logger.error('command failed', { method, error });
      return this.reject(method, 'Failed', `${method} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private reject(method: string | null, code: RejectionCode, message: string, frame?: string): void {
    const logged = frame === undefined ? {} : { frame: redactText(frame.slice(0, LOGGED_FRAME_CHARS)) };
    this.logger.warn('command rejected', { method, code, message, ...logged });
    this.events.send('CommandRejected', { method, code, message });
  }
}
