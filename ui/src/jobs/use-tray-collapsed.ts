// Whether the jobs tray shows only its header, remembered in this browser across reloads.
import { useCallback, useState } from 'react';

const STORAGE_KEY = 'keyframe.jobsTray.collapsed';

function stored(): boolean {
  try {
    return window.localStorage.getItem(STORAGE_KEY) === 'true';
  } catch {
    return false; // storage refused (private window, policy): the tray starts expanded
  }
}

export function useTrayCollapsed(): [boolean, (collapsed: boolean) => void] {
  const [collapsed, setState] = useState(stored);
  const set = useCallback((next: boolean) => {
    setState(next);
    try {
      window.localStorage.setItem(STORAGE_KEY, String(next));
    } catch {
      // not remembered: the state still holds for this page
    }
  }, []);
  return [collapsed, set];
}
