// The State a client that asked for Incremental State (`?state=patch`) holds, as Keyframe's UI keeps it:
// its last full State with every StatePatch received after it applied, in order.
import { applyJsonPatch, type State } from '@keyframe/core/protocol';
import type { ProtocolClient } from '@keyframe/integration-testkit';

interface Followed {
  /** How many of the client's events are in `state`. */
  seen: number;
  state: State | undefined;
  sequence: number;
}

const followed = new WeakMap<ProtocolClient, Followed>();

/** The patched State; throws when a patch's sequence is not the next one (the UI would ask RequestState). */
export function patchedState(client: ProtocolClient): State | undefined {
  const follow = followed.get(client) ?? { seen: 0, state: undefined, sequence: 0 };
  followed.set(client, follow);
  for (; follow.seen < client.events.length; follow.seen++) {
    const event = client.events[follow.seen]!;
    if (event.method === 'State') {
      follow.state = event.content as State;
      follow.sequence = 0;
    } else if (event.method === 'StatePatch') {
      const { sequence, patch } = event.content as { sequence: number; patch: Parameters<typeof applyJsonPatch>[1] };
      if (sequence !== follow.sequence + 1 || !follow.state) throw new Error(`StatePatch ${sequence} after ${follow.sequence}`);
      follow.state = applyJsonPatch(follow.state, patch);
      follow.sequence = sequence;
    }
  }
  return follow.state;
}

/** Resolves with the patched State once it satisfies `predicate`: now, or after a coming StatePatch. */
export async function untilPatched(client: ProtocolClient, predicate: (state: State) => boolean, timeoutMs = 5000): Promise<State> {
  const matches = () => {
    const state = patchedState(client);
    return state !== undefined && predicate(state);
  };
  if (!matches()) await client.next('StatePatch', matches, timeoutMs);
  return patchedState(client)!;
}
