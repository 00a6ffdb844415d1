// Generated bad frames for the protocol fuzz suites, each with the refusal it must get. Frames come
// from a seeded generator (print `seed` on failure; KEYFRAME_FUZZ_SEED replays it). Commands are
// only ever sent with Parameters their schema refuses, so no fuzzed command does real work: every
// candidate is checked against the schema before it is used.
import { Commands, describeProblems, isCommandName, type CommandName, type RejectionCode } from '@keyframe/core/protocol';
import { SeededRandom } from './seeded-random.js';

export interface FuzzFrame {
  kind: FuzzKind;
  data: string | Buffer;
  binary: boolean;
  /** The CommandRejected it must get. */
  expected: { code: RejectionCode; method: string | null };
}

export type FuzzKind =
  | 'random bytes'
  | 'random text'
  | 'truncated JSON'
  | 'deep nesting'
  | 'not an object'
  | 'bad envelope'
  | 'unknown method'
  | 'bad parameters'
  | 'frame over 1 MiB';

/** The part of JSON Schema the protocol's TypeBox schemas use. */
interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  pattern?: string;
  minimum?: number;
  maximum?: number;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const COMMAND_NAMES = Object.keys(Commands) as CommandName[];
const NO_PARAMETER_COMMANDS = COMMAND_NAMES.filter(
  (name) => Object.keys((Commands[name].parameters as JsonSchema).properties ?? {}).length === 0,
);
const TEXT_ALPHABET = 'abcXYZ019 {}[]":,.-_\\/\ttrue null é€😀\u0000\u202e';
const WRONG_VALUES: Json[] = [
  42,
  -1.5,
  0,
  true,
  false,
  null,
  'text',
  '',
  [],
  {},
  [1, 'a', null],
  { nested: { deeper: [] } },
  1e308,
  -2147483649,
];
const MIB = 1024 * 1024;

const WEIGHTS: readonly (readonly [FuzzKind, number])[] = [
  ['random bytes', 8],
  ['random text', 10],
  ['truncated JSON', 14],
  ['deep nesting', 4],
  ['not an object', 5],
  ['bad envelope', 6],
  ['unknown method', 10],
  ['bad parameters', 43],
  ['frame over 1 MiB', 0.15],
];

export class FrameFuzzer {
  readonly random: SeededRandom;

  constructor(readonly seed: number) {
    this.random = new SeededRandom(seed);
  }

  next(): FuzzFrame {
    const kind = this.random.weighted(WEIGHTS);
    switch (kind) {
      case 'random bytes':
        return { kind, data: this.random.bytes(this.random.integer(1, 2048)), binary: true, expected: malformed };
      case 'random text':
        return this.randomText();
      case 'truncated JSON':
        return this.truncated();
      case 'deep nesting':
        return this.deepNesting();
      case 'not an object':
        return this.text(kind, JSON.stringify(this.random.pick<Json>([[1, 2], 'NewConnection', 7, true, null, []])), malformed);
      case 'bad envelope':
        return this.badEnvelope();
      case 'unknown method':
        return this.unknownMethod();
      case 'bad parameters':
        return this.badParameters();
      case 'frame over 1 MiB':
        return this.text(
          kind,
          JSON.stringify({ Method: 'UpdateSettings', Parameters: { padding: 'x'.repeat(this.random.integer(MIB + 1, 1.5 * MIB)) } }),
          malformed,
        );
    }
  }

  private text(kind: FuzzKind, data: string, expected: FuzzFrame['expected']): FuzzFrame {
    return { kind, data, binary: false, expected };
  }

  private randomText(): FuzzFrame {
    for (;;) {
      const data = this.random.text(this.random.integer(1, 512), TEXT_ALPHABET);
      if (data !== 'ping' && commandIn(data) === undefined) return this.text('random text', data, malformed);
    }
  }

  private truncated(): FuzzFrame {
    const { data } = this.badParameters();
    const whole = typeof data === 'string' ? data : data.toString();
    return this.text('truncated JSON', whole.slice(0, this.random.integer(0, whole.length - 1)), malformed);
  }

  private deepNesting(): FuzzFrame {
    const depth = this.random.integer(100, 20_000);
    if (this.random.chance(0.5)) return this.text('deep nesting', `${'['.repeat(depth)}${']'.repeat(depth)}`, malformed);
    // Inside the Parameters of a real command: still refused before parsing, as nesting deeper than 64 levels.
    const method = this.random.pick(NO_PARAMETER_COMMANDS);
    const nested = `${'{"a":'.repeat(Math.min(depth, 2000))}1${'}'.repeat(Math.min(depth, 2000))}`;
    return this.text('deep nesting', `{"Method":${JSON.stringify(method)},"Parameters":${nested}}`, malformed);
  }

  private badEnvelope(): FuzzFrame {
    const method = this.random.pick(COMMAND_NAMES);
    const envelope = this.random.pick<Json>([
      { Parameters: {} },
      { method },
      { METHOD: method },
      { Method: '' },
      { Method: 42 },
      { Method: null },
      { Method: [method] },
      { Method: { name: method } },
      {},
    ]);
    return this.text('bad envelope', JSON.stringify(envelope), malformed);
  }

  private unknownMethod(): FuzzFrame {
    for (;;) {
      const method = this.random.pick([
        () => this.random.text(this.random.integer(1, 40), 'abcdefXYZ_-019 .é😀'),
        () => this.random.pick(COMMAND_NAMES).toLowerCase(),
        () => `${this.random.pick(COMMAND_NAMES)} `,
        () => this.random.pick(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype']),
        () => 'X'.repeat(this.random.integer(1000, 20_000)),
      ])();
      if (!isCommandName(method))
        return this.text('unknown method', JSON.stringify({ Method: method, Parameters: {} }), { code: 'UnknownMethod', method });
    }
  }

  /** A command with Parameters its schema refuses: missing, extra, wrong-typed or huge values. */
  private badParameters(): FuzzFrame {
    const method = this.random.pick(COMMAND_NAMES);
    const schema = Commands[method].parameters as JsonSchema;
    for (;;) {
      const parameters = this.mutate(schema, this.sample(schema, 0));
      const data = JSON.stringify({ Method: method, Parameters: parameters });
      // Judged after the JSON round trip, exactly as the service will see it.
      const sent = (JSON.parse(data) as { Parameters?: unknown }).Parameters ?? {};
      if (describeProblems(schema, sent).length > 0 && Buffer.byteLength(data) <= MIB) {
        return this.text('bad parameters', data, { code: 'InvalidParameters', method });
      }
    }
  }

  private mutate(schema: JsonSchema, valid: Json): Json {
    const object = valid !== null && typeof valid === 'object' && !Array.isArray(valid) ? { ...valid } : {};
    const keys = Object.keys(schema.properties ?? {});
    const mutation = this.random.pick(['missing', 'extra', 'wrong type', 'huge', 'not an object', 'several'] as const);
    const extra = () => {
      object[this.random.pick(['zz', 'force', '__proto__x', 'method', keys[0]?.toLowerCase() ?? 'x'])] = this.random.pick(WRONG_VALUES);
    };
    const wrongType = () => {
      if (keys.length > 0) object[this.random.pick(keys)] = this.random.pick(WRONG_VALUES);
      else extra();
    };
    switch (mutation) {
      case 'missing': {
        const required = schema.required ?? [];
        if (required.length > 0) delete object[this.random.pick(required)];
        else extra();
        return object;
      }
      case 'extra':
        extra();
        return object;
      case 'wrong type':
        wrongType();
        return object;
      case 'huge': {
        // A huge value alone may be valid (a long Title), so it always comes with a wrong one.
        const key = keys.length > 0 ? this.random.pick(keys) : 'huge';
        object[key] = this.random.chance(0.5)
          ? 'A'.repeat(this.random.integer(10_000, 900_000))
          : Array.from({ length: this.random.integer(1000, 50_000) }, (_, index) => index);
        wrongType();
        return object;
      }
      case 'not an object':
        return this.random.pick<Json>([[object], 'Parameters', 12, true, [1, 2, 3]]);
      case 'several':
        extra();
        wrongType();
        wrongType();
        return object;
    }
  }

  /** A plausible valid value for `schema` (the starting point that mutations break). */
  private sample(schema: JsonSchema, depth: number): Json {
    if (schema.enum) return this.random.pick(schema.enum as Json[]);
    if (schema.anyOf) return this.sample(this.random.pick(schema.anyOf), depth + 1);
    switch (schema.type) {
      case 'object': {
        const result: { [key: string]: Json } = {};
        for (const [key, property] of Object.entries(schema.properties ?? {})) {
          if ((schema.required ?? []).includes(key) || this.random.chance(0.5)) result[key] = this.sample(property, depth + 1);
        }
        return result;
      }
      case 'array':
        return depth > 4 || !schema.items ? [] : [this.sample(schema.items, depth + 1)];
      case 'string':
        return schema.pattern ? '00:00:01.5' : this.random.text(this.random.integer(1, 24), 'abcXYZ019 ./-_é');
      case 'integer':
        return this.random.integer(Math.max(schema.minimum ?? 0, 1), Math.min(schema.maximum ?? 1000, 1000));
      case 'number':
        return this.random.integer(schema.minimum ?? 0, 1000) + 0.5;
      case 'boolean':
        return this.random.chance(0.5);
      case 'null':
        return null;
      default:
        return null;
    }
  }
}

const malformed: FuzzFrame['expected'] = { code: 'MalformedMessage', method: null };

/** The Method `text` would run, if it parses as a command envelope at all. */
function commandIn(text: string): string | undefined {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
    const method = (parsed as Record<string, unknown>).Method;
    return typeof method === 'string' && method !== '' ? method : undefined;
  } catch {
    return undefined;
  }
}
