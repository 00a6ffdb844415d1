// Compiled validators for the protocol schemas, and error text a person can act on.
import { Compile, type TSchema, type Validator } from '#typebox';

const compiled = new WeakMap<TSchema, Validator>();

export function validatorFor(schema: TSchema): Validator {
  let validator = compiled.get(schema);
  if (!validator) {
    validator = Compile(schema);
    compiled.set(schema, validator);
  }
  return validator;
}

/** The first few problems of `value` against `schema`, as `path: message`; empty when it is valid. */
export function describeProblems(schema: TSchema, value: unknown, limit = 3): string[] {
  const validator = validatorFor(schema);
  if (validator.Check(value)) return [];
  const errors = validator.Errors(value);
  // A union of literals (`Kill | Death | …`, perhaps `| null`) is said once, with its values, instead of once per branch.
  const choices = new Map<string, unknown[]>();
  for (const error of errors) {
    const allowed = error.keyword === 'anyOf' ? literalChoices(schemaAt(schema, error.schemaPath)) : undefined;
    if (allowed) choices.set(error.schemaPath, allowed);
  }
  const problems = errors
    .filter((error) => ![...choices.keys()].some((union) => error.schemaPath.startsWith(`${union}/anyOf/`)))
    // Other anyOf branches repeat the same path once per literal; the summary line of the union says it once.
    .filter((error) => !(error.keyword === 'const' && error.schemaPath.includes('/anyOf/')))
    .map((error) => `${error.instancePath || '(root)'}: ${describeError(error, choices.get(error.schemaPath))}`);
  return [...new Set(problems)].slice(0, limit);
}

function describeError(error: { keyword: string; message: string; params: unknown }, choices: unknown[] | undefined): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required' && Array.isArray(params.requiredProperties)) {
    return `missing ${params.requiredProperties.join(', ')}`;
  }
  if (error.keyword === 'additionalProperties' && Array.isArray(params.additionalProperties)) {
    return `unknown ${params.additionalProperties.join(', ')}`;
  }
  if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) return oneOf(params.allowedValues);
  if (error.keyword === 'anyOf' && choices) return oneOf(choices);
  return error.message;
}

function oneOf(values: readonly unknown[]): string {
  return `must be one of ${values.map((value) => (typeof value === 'string' ? value : JSON.stringify(value))).join(', ')}`;
}

/** The part of `schema` a JSON pointer like `#/properties/type` names; undefined when it names none. */
function schemaAt(schema: TSchema, pointer: string): unknown {
  let node: unknown = schema;
  for (const token of pointer.split('/').slice(1)) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[token.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return node;
}

/** The values a union allows when each of its branches is a constant, an enum or null; otherwise undefined. */
function literalChoices(union: unknown): unknown[] | undefined {
  const branches = (union as { anyOf?: unknown } | undefined)?.anyOf;
  if (!Array.isArray(branches)) return undefined;
  const values: unknown[] = [];
  for (const branch of branches as Record<string, unknown>[]) {
    if ('const' in branch) values.push(branch.const);
    else if (Array.isArray(branch.enum)) values.push(...(branch.enum as unknown[]));
    else if (branch.type === 'null') values.push(null);
    else return undefined;
  }
  return values;
}
