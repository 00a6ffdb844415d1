// From a WebSocket frame to a command handler: `ping`, JSON envelope (put in SPEC's names from the
// connection's dialect), Method lookup, Parameters validation, then the handler. Every refusal is logged
// and answered with `CommandRejected`; while the service is still starting behind an open socket (data
// migrations) every command but those that ask for the first state is refused with the reason. The connection stays open and nothing a frontend sends can bring
// the process down. What is logged of a frame is redacted and bounded; frames of credential commands
// are never logged at all.
import { inject, injectAll, injectable } from 'tsyringe';
import { CommandError } from '../protocol/refusal.js';
import { COMMAND_GROUP, type CommandGroup, type CommandHandler } from '../commands/command-handlers.js';
import { Commands, describeProblems, isCommandName, type CommandName, type RejectionCode } from '../protocol/index.js';
import { Logger } from '../support/logger.js';
import { StartupGate } from '../support/startup-gate.js';
import { redactedExcerpt } from '../support/redact.js';
import { EVENT_SINK, type EventSink } from '../protocol/event-sink.js';
import type { WireDialect } from '../protocol/settings.js';
import { commandFromDialect } from '../protocol/wire-dialect.js';
import { nestsDeeperThan } from './json-nesting.js';

export const MAX_COMMAND_BYTES = 1024 * 1024;
/** No command needs more; deeper frames are refused before anything recurses over them. */
export const MAX_COMMAND_NESTING = 64;
const LOGGED_FRAME_CHARS = 200;
const LOGGED_PARAMETERS_CHARS = 1000;
/** Commands that carry credentials: of these only the method and the refusal are logged, never their content. */
const CREDENTIAL_COMMANDS: ReadonlySet<string> = new Set<CommandName>(['Login']);
/** A credential command named anywhere in a frame that could not be parsed, `\uXXXX` escapes included. */
const NAMES_CREDENTIAL_COMMAND = new RegExp(
  [...CREDENTIAL_COMMANDS]
    .map((name) => [...name].map((char) => `(?:${char}|\\u${char.charCodeAt(0).toString(16).padStart(4, '0')})`).join(''))
    .join('|'),
  'i',
);
/** Answered once the service has started (their handlers wait for it); any other command is refused until then. */
const WAIT_FOR_START: ReadonlySet<string> = new Set<CommandName>(['NewConnection', 'RequestState']);

@injectable()
export class Dispatcher {
  private readonly handlers = new Map<CommandName, CommandHandler<CommandName>>();
  private readonly logger: Logger;

  constructor(
    @injectAll(COMMAND_GROUP) groups: CommandGroup[],
    @inject(EVENT_SINK) private readonly events: EventSink,
    private readonly startup: StartupGate,
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

  /** Handles one frame in `dialect`'s names; never rejects. Resolves when the command's handler has finished. */
  async handle(frame: Buffer | string, dialect: WireDialect = 'spec', isBinary = false): Promise<void> {
    try {
      await this.dispatch(frame, dialect, isBinary);
    } catch (error) {
      // A fault in the dispatching itself, not in a handler (those are caught below): still an answer.
      this.logger.error('could not dispatch a frame', { error });
      this.events.send('CommandRejected', { method: null, code: 'Failed', message: 'The message could not be handled: see the log' });
    }
  }

  private async dispatch(frame: Buffer | string, dialect: WireDialect, isBinary: boolean): Promise<void> {
    if (isBinary) return this.reject(null, 'MalformedMessage', 'Binary frames are not accepted: send commands as JSON text');
    const byteLength = typeof frame === 'string' ? Buffer.byteLength(frame) : frame.length;
    if (byteLength > MAX_COMMAND_BYTES) {
      return this.reject(
        null,
        'MalformedMessage',
        `Frame of ${byteLength} bytes refused: commands are limited to ${MAX_COMMAND_BYTES} bytes`,
      );
    }
    const text = frame.toString();
    if (text === 'ping') return this.events.send('pong', {});
    if (text.trim() === '') return this.reject(null, 'MalformedMessage', 'Empty frame: expected a JSON object {Method, Parameters}');

    if (nestsDeeperThan(text, MAX_COMMAND_NESTING)) {
      return this.reject(
        null,
        'MalformedMessage',
        `The message nests arrays or objects more than ${MAX_COMMAND_NESTING} levels deep: no command needs that`,
      );
    }

    let envelope: unknown;
    try {
      envelope = JSON.parse(text);
    } catch (error) {
      return this.reject(null, 'MalformedMessage', `Not JSON (${jsonErrorWithoutExcerpt(error)}): expected {Method, Parameters}`, { text });
    }
    if (envelope === null || typeof envelope !== 'object' || Array.isArray(envelope)) {
      return this.reject(null, 'MalformedMessage', 'Expected a JSON object {Method, Parameters}', { text, parsed: envelope });
    }
    const { Method: method, Parameters: parameters } = commandFromDialect(dialect, envelope as Record<string, unknown>);
    if (typeof method !== 'string' || method === '') {
      return this.reject(null, 'MalformedMessage', 'The message has no Method (a non-empty string, capital M)', { text, parsed: envelope });
    }
    if (!isCommandName(method)) return this.reject(method, 'UnknownMethod', `Unknown command ${JSON.stringify(method.slice(0, 100))}`);

    const values = parameters ?? {};
    const problems = describeProblems(Commands[method].parameters, values);
    if (problems.length > 0) return this.reject(method, 'InvalidParameters', `Invalid Parameters for ${method}: ${problems.join('; ')}`);

    const handler = this.handlers.get(method);
    if (!handler) return this.reject(method, 'Unavailable', `${method} is not available in this version of Keyframe yet`);
    const starting = this.startup.closedBecause;
    if (starting !== undefined && !WAIT_FOR_START.has(method)) return this.reject(method, 'Unavailable', starting);

    if (!CREDENTIAL_COMMANDS.has(method) && this.logger.writes('debug'))
      this.logger.debug('command', { method, parameters: redactedExcerpt(values, LOGGED_PARAMETERS_CHARS) });
    try {
      await handler(values as never);
    } catch (error) {
      if (error instanceof CommandError) return this.reject(method, error.code, error.message);
      this.logger.error('command failed', { method, error });
      return this.reject(method, 'Failed', `${method} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** `frame` is the refused frame, to log an excerpt of: its text, and what it parsed to when it did. */
  private reject(method: string | null, code: RejectionCode, message: string, frame?: ReceivedFrame): void {
    this.events.send('CommandRejected', { method, code, message });
    // A refused credential command's message may quote what was sent (a key, a value), so it is not logged either.
    if (method !== null && CREDENTIAL_COMMANDS.has(method)) return this.logger.warn('command rejected', { method, code });
    this.logger.warn('command rejected', { method, code, message, ...(frame && { frame: excerptOf(frame) }) });
  }
}

interface ReceivedFrame {
  text: string;
  /** Present when the text parsed: redacting by structure is surer than by pattern. */
  parsed?: unknown;
}

function excerptOf(frame: ReceivedFrame): string {
  const { text } = frame;
  if (NAMES_CREDENTIAL_COMMAND.test(text)) return `(not logged: it names a credential command; ${text.length} characters)`;
  return redactedExcerpt('parsed' in frame ? frame.parsed : text, LOGGED_FRAME_CHARS);
}

/** V8 quotes the start of the text in some parse errors: that may be a token, so only the error itself is kept. */
function jsonErrorWithoutExcerpt(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/, (?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON$/, ' in a text that is not valid JSON');
}
