// The small projections of domain events into `State`: each follows one feature and returns a function that stops.
import { toWirePath, type State } from '../protocol/index.js';
import type { SettingsStore } from '../settings/settings-store.js';

export type StateChange = (change: Partial<State> | ((state: State) => void)) => void;

/** `State.cacheFolder`: the settings' cache folder, on the wire. */
export function projectSettings(settings: SettingsStore, update: StateChange, current: () => Readonly<State>): () => void {
  const publish = (cacheFolder: string) => {
    if (current().cacheFolder !== toWirePath(cacheFolder)) update({ cacheFolder: toWirePath(cacheFolder) });
  };
  publish(settings.current.cacheFolder);
  return settings.onChange((next) => publish(next.cacheFolder));
}
