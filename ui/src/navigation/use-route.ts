// The current route, following the location hash.
import { useSyncExternalStore } from 'react';
import { parseRoute, type Route } from './routes';

function subscribe(listener: () => void): () => void {
  window.addEventListener('hashchange', listener);
  return () => window.removeEventListener('hashchange', listener);
}

const currentHash = () => window.location.hash;

export function useRoute(): Route {
  // The hash string is the snapshot: a route object made per render would never compare equal.
  return parseRoute(useSyncExternalStore(subscribe, currentHash));
}
