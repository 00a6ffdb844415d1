// RFC 6902 JSON Patch, the three operations the Incremental State extension sends (`add`, `remove`,
// `replace`), and applying them without touching the document: what a patch leaves alone stays the same
// object, so a UI can tell what changed by reference.
import { Type, type Static } from '#typebox';

const pointer = Type.String({ description: 'RFC 6901 JSON Pointer; "" is the whole document' });

export const JsonPatchOperation = Type.Union([
  Type.Object({ op: Type.Literal('add'), path: pointer, value: Type.Unknown() }, { additionalProperties: false }),
  Type.Object({ op: Type.Literal('remove'), path: pointer }, { additionalProperties: false }),
  Type.Object({ op: Type.Literal('replace'), path: pointer, value: Type.Unknown() }, { additionalProperties: false }),
]);
export type JsonPatchOperation = Static<typeof JsonPatchOperation>;

/** One reference token of a JSON Pointer, escaped (`~` → `~0`, `/` → `~1`). */
export function pointerToken(key: string | number): string {
  return String(key).replace(/~/g, '~0').replace(/\//g, '~1');
}

function parsePointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw new Error(`Not a JSON Pointer: ${JSON.stringify(path)}`);
  return path
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

type Json = unknown;

/** `document` with `patch` applied; a copy along each changed path, everything else shared. Throws on a path that does not exist. */
export function applyJsonPatch<T>(document: T, patch: readonly JsonPatchOperation[]): T {
  let result: Json = document;
  for (const operation of patch) result = applyOperation(result, parsePointer(operation.path), operation);
  return result as T;
}

function applyOperation(target: Json, tokens: readonly string[], operation: JsonPatchOperation): Json {
  if (tokens.length === 0) {
    if (operation.op === 'remove') throw new Error('Cannot remove the whole document');
    return operation.value;
  }
  const [token, ...rest] = tokens as [string, ...string[]];
  if (Array.isArray(target)) {
    const index = token === '-' ? target.length : arrayIndex(token, target.length + (rest.length === 0 && operation.op === 'add' ? 1 : 0));
    const copy = [...target];
    if (rest.length > 0) copy[index] = applyOperation(target[index], rest, operation);
    else if (operation.op === 'add') copy.splice(index, 0, operation.value);
    else if (operation.op === 'remove') copy.splice(index, 1);
    else copy[index] = operation.value;
    return copy;
  }
  if (typeof target !== 'object' || target === null) throw new Error(`No such path: ${operation.path}`);
  const object = target as Record<string, Json>;
  const copy: Record<string, Json> = { ...object };
  if (rest.length > 0) {
    if (!Object.hasOwn(object, token)) throw new Error(`No such path: ${operation.path}`);
    copy[token] = applyOperation(object[token], rest, operation);
  } else if (operation.op === 'remove') {
    if (!Object.hasOwn(object, token)) throw new Error(`No such path: ${operation.path}`);
    delete copy[token];
  } else {
    if (operation.op === 'replace' && !Object.hasOwn(object, token)) throw new Error(`No such path: ${operation.path}`);
    copy[token] = operation.value;
  }
  return copy;
}

function arrayIndex(token: string, length: number): number {
  const index = /^(0|[1-9]\d*)$/.test(token) ? Number(token) : NaN;
  if (!(index < length)) throw new Error(`No such array index: ${token}`);
  return index;
}
