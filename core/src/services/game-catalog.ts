// The games the service knows, sent as `GameList`: for now the user's own `games` entries.
import { injectable } from 'tsyringe';
import type { GameEntry } from '../protocol/index.js';
import { SettingsStore } from './settings-store.js';

@injectable()
export class GameCatalog {
  constructor(private readonly settings: SettingsStore) {}

  list(): GameEntry[] {
    return this.settings.current.games.map((game) => ({
      name: game.name,
      executables: [...game.paths],
      gameDatabaseId: game.gameDatabaseId ?? null,
      icon: game.icon ?? null,
    }));
  }
}
