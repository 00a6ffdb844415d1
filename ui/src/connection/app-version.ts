// Reloads the page when the backend runs another version than the one this page was built from,
// so a user never drives a new backend with an old frontend. One reload per backend version at most:
// if the served build is still older after it (a stale ui/dist), the page stays and says so.
import { useServerEvent } from './hooks';

export const BUILT_VERSION = __APP_VERSION__;
const RELOADED_FOR_KEY = 'keyframe.reloadedForVersion';

export function useReloadOnNewVersion(): void {
  useServerEvent('AppVersion', ({ version }) => {
    if (!version || version === BUILT_VERSION) {
      sessionStorage.removeItem(RELOADED_FOR_KEY);
      return;
    }
    if (sessionStorage.getItem(RELOADED_FOR_KEY) === version) {
      console.warn(`Keyframe ${version} is running, but this page was built for ${BUILT_VERSION}; rebuild the UI.`);
      return;
    }
    sessionStorage.setItem(RELOADED_FOR_KEY, version);
    window.location.reload();
  });
}
