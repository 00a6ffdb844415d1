// The title shown for an item that has none: "<game> — <date>" in the user's locale, short (the year only when it
// is not this one). Only the display: the item keeps its empty title, on disk and on the wire.
const DAY_AND_TIME = { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' } as const;
const thisYear = new Intl.DateTimeFormat(undefined, DAY_AND_TIME);
const otherYear = new Intl.DateTimeFormat(undefined, { ...DAY_AND_TIME, year: 'numeric' });

/** "Untitled" stands for the game only when there is none; the date is left out when it cannot be read. */
export function defaultTitle(game: string, createdAt: string): string {
  const name = game.trim() || 'Untitled';
  const date = new Date(createdAt);
  if (Number.isNaN(date.getTime())) return name;
  const format = date.getFullYear() === new Date().getFullYear() ? thisYear : otherYear;
  return `${name} — ${format.format(date)}`;
}
