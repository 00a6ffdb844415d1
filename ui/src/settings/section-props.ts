import type { Settings, State } from '@keyframe/core/protocol';

/** What every settings tab is drawn from. */
export interface SectionProps {
  settings: Settings;
  state: State;
  connected: boolean;
}
