// Where RuneScape: Dragonwilds writes its client log: the Unreal Engine `Saved/Logs` folder of the
// game in the per-user local app-data folder.
import path from 'node:path';

export const CLIENT_LOG_NAME = 'RSDragonwilds.log';

export function clientLogPath(localAppData: string): string {
  return path.join(localAppData, 'RSDragonwilds', 'Saved', 'Logs', CLIENT_LOG_NAME);
}
