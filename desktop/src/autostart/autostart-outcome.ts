// What applying the start-with-the-computer setting did, for the log.
export type AutostartOutcome =
  | { kind: 'written' | 'removed' | 'unchanged'; entry: string }
  /** An entry of that name that Keyframe did not write: left alone, so the setting has no effect. */
  | { kind: 'foreign'; entry: string };
