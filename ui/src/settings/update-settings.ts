import type { SettingsChanges } from '@keyframe/core/protocol';
import { connection } from '../connection';

/** Sends only the changed fields: the backend merges them into the stored settings. */
export function updateSettings(changes: SettingsChanges): void {
  connection.send('UpdateSettings', changes);
}
