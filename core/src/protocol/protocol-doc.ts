// Renders the protocol reference of docs/protocol.md from the TypeBox schemas, so the doc cannot drift from them.
import type { TSchema } from '#typebox';
import { Commands } from './commands.js';
import { Events } from './events.js';
import {
  AudioDevice,
  Bookmark,
  CaptureEngineInfo,
  CaptureInUse,
  CaptureEngineVersion,
  Codec,
  ContentItem,
  ContentItemReference,
  Display,
  Game,
  GameEntry,
  IntegrationApproval,
  IntegrationHealth,
  IntegrationSettingsSchema,
  ChoiceSettingField,
  BooleanSettingField,
  TextSettingField,
  NumberSettingField,
  TextListSettingField,
  IntegrationPackage,
  PreRecording,
  Recording,
  RecoverableFile,
  ReleaseNote,
  Segment,
  State,
} from './models.js';
import {
  DeviceSetting,
  GameSetting,
  IntegrationSetting,
  Keybinding,
  MenuItem,
  QualityOverride,
  RecordingModeOverride,
  Settings,
  SettingsChanges,
} from './settings.js';

/** The JSON Schema keywords read here; TypeBox schemas are plain JSON Schema objects. */
interface JsonSchema {
  readonly type?: string;
  readonly description?: string;
  readonly default?: unknown;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly anyOf?: readonly JsonSchema[];
  readonly allOf?: readonly JsonSchema[];
  readonly items?: JsonSchema;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly patternProperties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | JsonSchema;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly minItems?: number;
  readonly maxItems?: number;
}

const asJson = (schema: TSchema): JsonSchema => schema as JsonSchema;

/** One table each in "Models", in this order; fields holding one of them show its name instead of its shape. */
const MODELS: Readonly<Record<string, TSchema>> = {
  Settings,
  State,
  Recording,
  PreRecording,
  ContentItem,
  ContentItemReference,
  Bookmark,
  Segment,
  GameEntry,
  Game,
  ReleaseNote,
  AudioDevice,
  Display,
  Codec,
  CaptureEngineVersion,
  CaptureEngineInfo,
  CaptureInUse,
  IntegrationHealth,
  IntegrationApproval,
  IntegrationSettingsSchema,
  ChoiceSettingField,
  BooleanSettingField,
  TextSettingField,
  NumberSettingField,
  TextListSettingField,
  IntegrationPackage,
  RecoverableFile,
  Keybinding,
  DeviceSetting,
  GameSetting,
  QualityOverride,
  RecordingModeOverride,
  IntegrationSetting,
  MenuItem,
};

const link = (name: string) => `[${name}](#${name.toLowerCase()})`;

// Matched by identity: the schemas are shared objects, so a field typed `Segment` holds that very object.
const NAMED_SCHEMAS = new Map<JsonSchema, string>([
  ...Object.entries(MODELS).map(([name, schema]): [JsonSchema, string] => [asJson(schema), link(name)]),
  [asJson(SettingsChanges), `any subset of the ${link('Settings')} fields`],
]);

const ANY_KEY = '^.*$';
const LONG_DEFAULT = 60;

const code = (text: string) => `\`${text}\``;
const literal = (value: unknown) => code(typeof value === 'string' && value !== '' ? value : JSON.stringify(value));
const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);
const withNotes = (type: string, notes: readonly string[]) => (notes.length > 0 ? `${type} (${notes.join(', ')})` : type);

function rangeNotes(schema: JsonSchema): string[] {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema;
  if (minimum !== undefined && maximum !== undefined) return [`${minimum} to ${maximum}`];
  return [
    minimum === undefined ? '' : `≥ ${minimum}`,
    exclusiveMinimum === undefined ? '' : `> ${exclusiveMinimum}`,
    maximum === undefined ? '' : `≤ ${maximum}`,
    exclusiveMaximum === undefined ? '' : `< ${exclusiveMaximum}`,
  ].filter(Boolean);
}

function stringNotes({ minLength, maxLength, pattern }: JsonSchema): string[] {
  return [
    minLength === undefined || minLength === 1 ? '' : `at least ${minLength} characters`,
    maxLength === undefined ? '' : `at most ${maxLength} characters`,
    pattern === undefined ? '' : `matching ${code(pattern)}`,
  ].filter(Boolean);
}

function arrayNotes({ minItems, maxItems }: JsonSchema): string[] {
  return [
    minItems === undefined ? '' : `at least ${minItems} ${minItems === 1 ? 'item' : 'items'}`,
    maxItems === undefined ? '' : `at most ${maxItems} items`,
  ].filter(Boolean);
}

function unionType(branches: readonly JsonSchema[]): string {
  const nonNull = branches.filter((branch) => branch.type !== 'null');
  const types = nonNull.map(typeOf).join(' or ');
  return nonNull.length < branches.length ? `${types} or null` : types;
}

function objectType(schema: JsonSchema): string {
  const [entry] = Object.entries(schema.patternProperties ?? {});
  if (entry) {
    const [keyPattern, value] = entry;
    const values = `object of ${typeOf(value)}`;
    return keyPattern === ANY_KEY ? values : `${values} with keys matching ${code(keyPattern)}`;
  }
  return Object.keys(schema.properties ?? {}).length > 0 ? 'object' : 'empty object';
}

/** A schema's type in words, e.g. `array of [Segment](#segment) (at least 1 item)`. */
function typeOf(schema: JsonSchema): string {
  const name = NAMED_SCHEMAS.get(schema);
  if (name !== undefined) return name;
  if (schema.enum) return schema.enum.map(literal).join(' | ');
  if (schema.const !== undefined) return literal(schema.const);
  if (schema.anyOf) return unionType(schema.anyOf);
  switch (schema.type) {
    case undefined:
      return 'any';
    case 'string':
      return withNotes(schema.minLength === 1 ? 'non-empty string' : 'string', stringNotes(schema));
    case 'number':
    case 'integer':
      return withNotes(schema.type, rangeNotes(schema));
    case 'array':
      return withNotes(`array of ${schema.items ? typeOf(schema.items) : 'any'}`, arrayNotes(schema));
    case 'object':
      return objectType(schema);
    default:
      return schema.type;
  }
}

/** The schema's own description, or that of the type a nullable wraps; a named model's lives in its table. */
function descriptionOf(schema: JsonSchema): string | undefined {
  if (NAMED_SCHEMAS.has(schema)) return undefined;
  return schema.description ?? schema.anyOf?.map(descriptionOf).find((text) => text !== undefined);
}

function defaultOf(schema: JsonSchema): string {
  const value = schema.default;
  if (value === undefined) return '';
  const json = JSON.stringify(value);
  if (json.length <= LONG_DEFAULT || typeof value !== 'object' || value === null) return literal(value);
  if (Array.isArray(value)) return `${value.length} entries`;
  return `an entry for each of ${Object.keys(value).map(code).join(', ')}`;
}

interface Field {
  readonly name: string;
  readonly schema: JsonSchema;
  readonly required: boolean;
}

/** An intersection's parts, or the schema itself: a model's fields are those of every part. */
const partsOf = (schema: JsonSchema): readonly JsonSchema[] => schema.allOf ?? [schema];

function fieldsOf(schema: JsonSchema): Field[] {
  return partsOf(schema).flatMap((part) => {
    const required = new Set(part.required ?? []);
    return Object.entries(part.properties ?? {}).map(([name, field]) => ({ name, schema: field, required: required.has(name) }));
  });
}

/** What a model says of fields beyond its named ones: e.g. an intersection with a record of values. */
function otherFieldsNote(schema: JsonSchema): string {
  if (schema.additionalProperties === false) return 'No other fields are accepted';
  const values = partsOf(schema).flatMap((part) => (part === schema ? [] : Object.values(part.patternProperties ?? {})));
  return values.map((value) => `Other fields: ${typeOf(value)}`).join('. ');
}

const cell = (text: string) => text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
const row = (cells: readonly string[]) => `| ${cells.map(cell).join(' | ')} |`;
const table = (header: readonly string[], rows: readonly (readonly string[])[]) =>
  [row(header), row(header.map(() => '---')), ...rows.map(row)].join('\n');

function describeField({ name, schema, required }: Field): string {
  const description = descriptionOf(schema);
  const field = `${code(name)}: ${typeOf(schema)}, ${required ? 'required' : 'optional'}`;
  return description === undefined ? field : `${field} — ${description}`;
}

/** A command's parameters or an event's content: its fields when it is an unnamed object, else its type. */
function describePayload(schema: JsonSchema): string {
  if (NAMED_SCHEMAS.has(schema) || schema.type !== 'object' || schema.patternProperties) {
    const description = descriptionOf(schema);
    return description === undefined ? typeOf(schema) : `${typeOf(schema)} — ${description}`;
  }
  const fields = fieldsOf(schema);
  return fields.length > 0 ? fields.map(describeField).join('<br>') : 'none';
}

interface MessageDefinition {
  readonly summary: string;
  readonly extension?: boolean;
}

function messageTable<D extends MessageDefinition>(
  header: readonly string[],
  definitions: Readonly<Record<string, D>>,
  payloadOf: (definition: D) => TSchema,
): string {
  return table(
    header,
    Object.entries(definitions).map(([name, definition]) => [
      code(name),
      describePayload(asJson(payloadOf(definition))),
      definition.summary,
      definition.extension ? 'yes' : '',
    ]),
  );
}

function modelSection(name: string, schema: JsonSchema): string {
  const notes = [schema.description ?? '', otherFieldsNote(schema)].filter(Boolean).map(sentence);
  const rows = fieldsOf(schema).map((field) => [
    code(field.name),
    typeOf(field.schema),
    field.required ? 'yes' : 'no',
    defaultOf(field.schema),
    descriptionOf(field.schema) ?? '',
  ]);
  return [
    `### ${name}`,
    ...(notes.length > 0 ? [notes.join(' ')] : []),
    table(['Field', 'Type', 'Required', 'Default', 'Description'], rows),
  ].join('\n\n');
}

/** The Markdown reference: Commands, Events and Models tables. */
export function renderProtocolReference(): string {
  return [
    '## Commands',
    'Frontend to backend, as `{Method, Parameters}`. "Extension" marks commands this service adds to SPEC.',
    messageTable(['Command', 'Parameters', 'Summary', 'Extension'], Commands, (command) => command.parameters),
    '## Events',
    'Backend to frontend, as `{method, content}`. "Extension" marks events this service adds to SPEC.',
    messageTable(['Event', 'Content', 'Summary', 'Extension'], Events, (event) => event.content),
    '## Models',
    ...Object.entries(MODELS).map(([name, schema]) => modelSection(name, asJson(schema))),
  ].join('\n\n');
}

export const GENERATED_BEGIN = '<!-- generated:begin -->';
export const GENERATED_END = '<!-- generated:end -->';

function splitAtMarkers(document: string) {
  const begin = document.indexOf(GENERATED_BEGIN);
  const end = begin < 0 ? -1 : document.indexOf(GENERATED_END, begin);
  if (end < 0) return undefined;
  const blockStart = begin + GENERATED_BEGIN.length;
  return { before: document.slice(0, blockStart), block: document.slice(blockStart, end), after: document.slice(end) };
}

/** The text between the markers, without surrounding blank lines; undefined when a marker is missing. */
export function generatedBlockOf(document: string): string | undefined {
  // A checkout with CRLF line endings still holds the same reference.
  return splitAtMarkers(document.replace(/\r\n/g, '\n'))?.block.trim();
}

/** The document with `reference` between its markers; undefined when a marker is missing. */
export function withGeneratedBlock(document: string, reference: string): string | undefined {
  const parts = splitAtMarkers(document);
  return parts && `${parts.before}\n\n${reference}\n\n${parts.after}`;
}
