// What the media jobs' progress events add to SPEC at the end of a cancelled job: -1, `status: "error"` (what a
// frontend that knows no cancel shows as a failure) and `cancelled: true`. (A finished job's `output`:
// library/output-reference.ts.)

/** The fields of a cancelled job's last progress event: "Highlight cancelled", -1, `cancelled`. */
export function cancelledEnd(what: string): { progress: -1; status: 'error'; message: string; cancelled: true } {
  return { progress: -1, status: 'error', message: `${what} cancelled`, cancelled: true };
}
