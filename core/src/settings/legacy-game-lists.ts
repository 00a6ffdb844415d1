// Migration of the legacy `whitelist` / `blacklist` settings into the unified `games` list:
// whitelist entries become `record: true`, blacklist entries `record: false`. A game already in
// `games` keeps its choice and gains the legacy paths; whitelist wins over blacklist.
import type { Game, GameSetting, Settings } from '../protocol/index.js';

export interface LegacyMigration {
  settings: Settings;
  migratedGames: number;
}

export function migrateLegacyGameLists(settings: Settings): LegacyMigration {
  if (settings.whitelist.length === 0 && settings.blacklist.length === 0) return { settings, migratedGames: 0 };
  const games = settings.games.map((game) => ({ ...game, paths: [...game.paths] }));
  const byName = new Map(games.map((game) => [game.name.toLowerCase(), game]));
  const fromLegacy = new Set<GameSetting>();

  const absorb = (legacy: Game, record: boolean) => {
    const existing = byName.get(legacy.name.toLowerCase());
    if (!existing) {
      const entry: GameSetting = { name: legacy.name, paths: [...new Set(legacy.paths)], record };
      games.push(entry);
      byName.set(legacy.name.toLowerCase(), entry);
      fromLegacy.add(entry);
      return;
    }
    existing.paths = [...new Set([...existing.paths, ...legacy.paths])];
    // Only entries created by this migration may change their choice: the user's own entries win.
    if (fromLegacy.has(existing) && record) existing.record = true;
  };
  for (const game of settings.whitelist) absorb(game, true);
  for (const game of settings.blacklist) absorb(game, false);

  return {
    settings: { ...settings, games, whitelist: [], blacklist: [] },
    migratedGames: settings.whitelist.length + settings.blacklist.length,
  };
}
