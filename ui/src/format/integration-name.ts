/** A settings key as a label: `tacticalShooter` → `Tactical Shooter`, `arenaGameA` → `Arena Game A`. */
export function integrationName(key: string): string {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
