// The settings an integration declares (a TypeBox schema, i.e. plain JSON Schema): checked once when its
// class loads, so that the settings page can render every field; then the values it is given (stored
// ones where valid, the schema's defaults otherwise) and the words for a value that is refused.
import type { TSchema } from '#typebox';
import {
  BooleanSettingField,
  ChoiceSettingField,
  NumberSettingField,
  TextListSettingField,
  TextSettingField,
  describeProblems,
  validatorFor,
  type IntegrationSettingField,
  type IntegrationSettingsSchema,
} from '../protocol/index.js';

/** Field names an integration may not declare: the host's own beside them in `gameIntegrations.<key>`. */
const RESERVED_FIELDS = ['enabled'];

/**
 * The schema an integration declares (its class's static `settings`), as the settings page gets it;
 * undefined when it declares none. Throws an Error saying what cannot be rendered.
 */
export function readSettingsSchema(declared: unknown): IntegrationSettingsSchema | undefined {
  if (declared === undefined) return undefined;
  // JSON drops what is not JSON Schema (TypeBox's own non-enumerable marks), so any copy of TypeBox is read alike.
  const schema = withChoicesAsEnum(JSON.parse(JSON.stringify(declared)) as unknown);
  const fields = (schema as { properties?: unknown } | null)?.properties;
  if ((schema as { type?: unknown } | null)?.type !== 'object' || fields === null || typeof fields !== 'object')
    throw new Error('its static settings is not an object schema: declare it with defineSettings({ … })');
  const problems = Object.entries(fields as Record<string, unknown>).flatMap(([name, field]) => fieldProblems(name, field));
  if (problems.length > 0) throw new Error(`its settings cannot be shown in the settings page: ${problems.join('; ')}`);
  return schema as IntegrationSettingsSchema;
}

/** What keeps one declared field from being rendered and filled in, one line each. */
function fieldProblems(name: string, field: unknown): string[] {
  if (RESERVED_FIELDS.includes(name)) return [`"${name}" is the host's own switch, not a setting to declare`];
  if (!/^[a-zA-Z][a-zA-Z0-9]*$/.test(name)) return [`"${name}" is not a name of letters and digits`];
  const kind = fieldKind(field);
  if (!kind) return [`"${name}" is not a boolean, string, number, integer, string enum or array of strings (${JSON.stringify(field)})`];
  const problems = describeProblems(kind, field).map((problem) => `"${name}"${problem.replace(/^\(root\)/, '')}`);
  if (problems.length > 0) return problems;
  const valid = field as IntegrationSettingField;
  return fieldAccepts(valid, valid.default)
    ? []
    : [`the default of "${name}" (${JSON.stringify(valid.default)}) is not ${describeAllowed(valid)}`];
}

/** The kind of field a declaration means to be, by its `enum` or `type`. */
function fieldKind(field: unknown): TSchema | undefined {
  if (field === null || typeof field !== 'object') return undefined;
  if ('enum' in field) return ChoiceSettingField;
  const kinds: Record<string, TSchema> = {
    boolean: BooleanSettingField,
    string: TextSettingField,
    number: NumberSettingField,
    integer: NumberSettingField,
    array: TextListSettingField,
  };
  const type = (field as { type?: unknown }).type;
  return typeof type === 'string' ? kinds[type] : undefined;
}

/** Each declared field's stored value where it is valid, else its default; stored keys not declared are left out. */
export function settingValues(schema: IntegrationSettingsSchema | undefined, stored: Readonly<Record<string, unknown>> | undefined) {
  const values: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema?.properties ?? {})) {
    const value = stored?.[name];
    values[name] = value !== undefined && fieldAccepts(field, value) ? value : structuredClone(field.default);
  }
  return values;
}

/**
 * What is wrong with the fields `entry` changes against `before`, one line each naming the field and
 * what it takes; fields not changed are not judged (a value an older version saved stays until changed).
 */
export function settingProblems(
  key: string,
  schema: IntegrationSettingsSchema,
  entry: Readonly<Record<string, unknown>>,
  before: Readonly<Record<string, unknown>> | undefined,
): string[] {
  const problems: string[] = [];
  const declared = Object.keys(schema.properties);
  for (const [name, value] of Object.entries(entry)) {
    if (RESERVED_FIELDS.includes(name) || JSON.stringify(value) === JSON.stringify(before?.[name])) continue;
    const field = schema.properties[name];
    if (!field) {
      problems.push(`gameIntegrations.${key}.${name} is not a setting of ${key} (its settings: ${declared.join(', ') || 'none'})`);
    } else if (!fieldAccepts(field, value)) {
      problems.push(`gameIntegrations.${key}.${name} is ${JSON.stringify(value)}, it must be ${describeAllowed(field)}`);
    }
  }
  return problems;
}

/** What a field takes, in words a person reads in a refusal. */
export function describeAllowed(field: IntegrationSettingField): string {
  if ('enum' in field) return `one of ${field.enum.map((choice) => JSON.stringify(choice)).join(', ')}`;
  switch (field.type) {
    case 'boolean':
      return 'true or false';
    case 'array':
      return 'a list of texts';
    case 'string': {
      const limits = [
        field.format && `in the format ${field.format}`,
        field.pattern && `matching ${field.pattern}`,
        field.minLength !== undefined && `at least ${field.minLength} characters long`,
        field.maxLength !== undefined && `at most ${field.maxLength} characters long`,
      ].filter(Boolean);
      return ['a text', ...limits].join(' ');
    }
    default: {
      const kind = field.type === 'integer' ? 'a whole number' : 'a number';
      if (field.minimum !== undefined && field.maximum !== undefined) return `${kind} from ${field.minimum} to ${field.maximum}`;
      if (field.minimum !== undefined) return `${kind} of at least ${field.minimum}`;
      if (field.maximum !== undefined) return `${kind} of at most ${field.maximum}`;
      return kind;
    }
  }
}

function fieldAccepts(field: IntegrationSettingField, value: unknown): boolean {
  return validatorFor(field as TSchema).Check(value);
}

/** `Type.Union([Type.Literal('a'), …])` is the same choice as `Type.Enum(['a', …])`: the page knows the one form. */
function withChoicesAsEnum(schema: unknown): unknown {
  const properties = (schema as { properties?: unknown } | null)?.properties;
  if (properties === null || typeof properties !== 'object') return schema;
  const fields = Object.entries(properties as Record<string, unknown>).map(([name, field]) => {
    const { anyOf, ...rest } = (field ?? {}) as { anyOf?: unknown };
    const choices = Array.isArray(anyOf) ? anyOf.map((branch) => (branch as { const?: unknown } | null)?.const) : [];
    const literals = choices.length > 0 && choices.every((choice) => typeof choice === 'string');
    return [name, literals ? { ...rest, enum: choices } : field];
  });
  return { ...(schema as object), properties: Object.fromEntries(fields) };
}
