// Player names as PUBG writes them differ by clan tag and case between the replay info and the events.

/** The name without clan tags (`[TAG]`), trimmed, in lower case: two names are the same player when these are equal. */
export function comparablePlayerName(name: string): string {
  return name
    .replace(/\[.*?\]/g, '')
    .trim()
    .toLowerCase();
}
