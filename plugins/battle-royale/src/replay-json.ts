// PUBG wraps the JSON of each replay file in binary framing: the JSON runs from the first `{` to the last `}`.

export type JsonResult = { ok: true; value: Record<string, unknown> } | { ok: false; reason: string };

export function jsonInside(bytes: Uint8Array): JsonResult {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const first = buffer.indexOf(0x7b); // {
  const last = buffer.lastIndexOf(0x7d); // }
  if (first < 0 || last < first) return { ok: false, reason: 'it holds no complete JSON object' };
  let value: unknown;
  try {
    value = JSON.parse(buffer.subarray(first, last + 1).toString('utf8'));
  } catch (error) {
    return { ok: false, reason: `its JSON does not parse (${error instanceof Error ? error.message : String(error)})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, reason: 'its JSON is not an object' };
  return { ok: true, value: value as Record<string, unknown> };
}
