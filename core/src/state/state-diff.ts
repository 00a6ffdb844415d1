// The JSON Patch that turns one State into the next, cheaply: State is updated immutably, so a subtree
// that is the same object is unchanged and is not walked (5,000 library items cost one comparison each
// when one of them changed). Arrays of objects with unique ids (`content`, `bookmarks`) are matched by
// id, so adding, removing or changing one item is one small operation, not the whole list.
import { pointerToken, type JsonPatchOperation } from '../protocol/json-patch.js';

type Json = unknown;

export function diffState<T>(before: T, after: T): JsonPatchOperation[] {
  const patch: JsonPatchOperation[] = [];
  diffValue(before, after, '', patch);
  return patch;
}

function diffValue(before: Json, after: Json, path: string, patch: JsonPatchOperation[]): void {
  if (before === after) return;
  if (Array.isArray(before) && Array.isArray(after)) return diffArray(before, after, path, patch);
  if (isPlainObject(before) && isPlainObject(after)) return diffObject(before, after, path, patch);
  patch.push({ op: 'replace', path, value: after });
}

function diffObject(before: Record<string, Json>, after: Record<string, Json>, path: string, patch: JsonPatchOperation[]): void {
  for (const key of Object.keys(before)) {
    if (!Object.hasOwn(after, key) || after[key] === undefined) {
      if (before[key] !== undefined) patch.push({ op: 'remove', path: `${path}/${pointerToken(key)}` });
    }
  }
  for (const [key, value] of Object.entries(after)) {
    if (value === undefined) continue;
    const child = `${path}/${pointerToken(key)}`;
    if (!Object.hasOwn(before, key) || before[key] === undefined) patch.push({ op: 'add', path: child, value });
    else diffValue(before[key], value, child, patch);
  }
}

function diffArray(before: readonly Json[], after: readonly Json[], path: string, patch: JsonPatchOperation[]): void {
  if (!sameIdsInOrder(before, after)) {
    const beforeIds = idsOf(before);
    const afterIds = idsOf(after);
    if (beforeIds && afterIds) return diffById(before, beforeIds, after, afterIds, path, patch);
  }
  const common = Math.min(before.length, after.length);
  // The same element is skipped before its path is spelled out: most of a long list is unchanged.
  for (let index = 0; index < common; index++)
    if (before[index] !== after[index]) diffValue(before[index], after[index], `${path}/${index}`, patch);
  for (let index = before.length - 1; index >= common; index--) patch.push({ op: 'remove', path: `${path}/${index}` });
  for (let index = common; index < after.length; index++) patch.push({ op: 'add', path: `${path}/${index}`, value: after[index] });
}

/** The same elements or elements with the same ids, position by position (a change inside items only): compared in place. */
function sameIdsInOrder(before: readonly Json[], after: readonly Json[]): boolean {
  if (before.length !== after.length) return false;
  for (let index = 0; index < before.length; index++) {
    const [was, is] = [before[index], after[index]];
    if (was === is) continue;
    if (!isPlainObject(was) || !isPlainObject(is) || was.id === undefined || was.id !== is.id) return false;
  }
  return true;
}

/**
 * Removes what is gone (from the end, so indices hold), adds what is new at its place, then diffs what
 * stayed. A list whose kept items changed order is replaced whole: the library never reorders items.
 */
function diffById(
  before: readonly Json[],
  beforeIds: readonly Json[],
  after: readonly Json[],
  afterIds: readonly Json[],
  path: string,
  patch: JsonPatchOperation[],
): void {
  const afterIndex = new Map(afterIds.map((id, index) => [id, index]));
  const beforeIndex = new Map(beforeIds.map((id, index) => [id, index]));
  const kept = beforeIds.filter((id) => afterIndex.has(id));
  const keptInNewOrder = afterIds.filter((id) => beforeIndex.has(id));
  if (kept.some((id, index) => id !== keptInNewOrder[index])) {
    patch.push({ op: 'replace', path, value: after });
    return;
  }
  for (let index = before.length - 1; index >= 0; index--) {
    if (!afterIndex.has(beforeIds[index])) patch.push({ op: 'remove', path: `${path}/${index}` });
  }
  for (let index = 0; index < after.length; index++) {
    if (!beforeIndex.has(afterIds[index])) patch.push({ op: 'add', path: `${path}/${index}`, value: after[index] });
  }
  for (let index = 0; index < after.length; index++) {
    const previous = beforeIndex.get(afterIds[index]);
    if (previous !== undefined && before[previous] !== after[index]) diffValue(before[previous], after[index], `${path}/${index}`, patch);
  }
}

/** The `id` of every element, or undefined when some element has none or two share one. */
function idsOf(array: readonly Json[]): Json[] | undefined {
  if (array.length === 0) return [];
  const ids: Json[] = [];
  for (const element of array) {
    if (!isPlainObject(element) || (typeof element.id !== 'string' && typeof element.id !== 'number')) return undefined;
    ids.push(element.id);
  }
  return new Set(ids).size === ids.length ? ids : undefined;
}

function isPlainObject(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
