// The app's places as hash routes: #/library/<section>, #/video/<id>, #/recording, #/settings/<tab>.
import { LIBRARY_SECTIONS, type LibrarySection } from '../library/content-types';

export const SETTINGS_TABS = [
  'recording',
  'presets',
  'storage',
  'games',
  'integrations',
  'keybindings',
  'updates',
  'desktop',
  'account',
] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

export type Route =
  | { page: 'library'; section: LibrarySection }
  | { page: 'video'; id: string }
  | { page: 'recording' }
  | { page: 'settings'; tab: SettingsTab };

export const DEFAULT_ROUTE: Route = { page: 'library', section: 'sessions' };

const isOneOf = <T extends string>(values: readonly T[], value: string | undefined): value is T =>
  value !== undefined && (values as readonly string[]).includes(value);

/** The route a hash names; unknown or incomplete hashes lead to the default page. */
export function parseRoute(hash: string): Route {
  const [page, ...rest] = hash.replace(/^#\/?/, '').split('/');
  const argument = rest.join('/');
  if (page === 'library' && isOneOf(LIBRARY_SECTIONS, argument)) return { page, section: argument };
  if (page === 'video' && argument) return { page, id: argument };
  if (page === 'recording') return { page };
  if (page === 'settings') return { page, tab: isOneOf(SETTINGS_TABS, argument) ? argument : 'recording' };
  return DEFAULT_ROUTE;
}

export function routeHref(route: Route): string {
  switch (route.page) {
    case 'library':
      return `#/library/${route.section}`;
    case 'video':
      return `#/video/${route.id}`;
    case 'recording':
      return '#/recording';
    case 'settings':
      return `#/settings/${route.tab}`;
  }
}

export function navigate(route: Route): void {
  window.location.hash = routeHref(route);
}
