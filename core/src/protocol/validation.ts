// Compiled validators for the protocol schemas, and error text a person can act on.
import type { TSchema } from 'typebox';
import { Compile, type Validator } from 'typebox/compile';

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
  const problems = validator
    .Errors(value)
    // anyOf branches repeat the same path once per literal; the summary line of the union says it once.
    .filter((error) => !(error.keyword === 'const' && error.schemaPath.includes('/anyOf/')))
    .map((error) => `${error.instancePath || '(root)'}: ${describeError(error)}`);
  return [...new Set(problems)].slice(0, limit);
}

function describeError(error: { keyword: string; message: string; params: unknown }): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required' && Array.isArray(params.requiredProperties)) {
    return `missing ${params.requiredProperties.join(', ')}`;
  }
  if (error.keyword === 'additionalProperties' && Array.isArray(params.additionalProperties)) {
    return `unknown ${params.additionalProperties.join(', ')}`;
  }
  return error.message;
}
