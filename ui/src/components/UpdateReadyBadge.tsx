import { routeHref } from '../navigation';
import { useUpdateProgress } from '../settings/update-progress';

/**
 * In the header once an update is downloaded and checked: it leads to Settings › Updates, where installing is
 * one deliberate click. Installing restarts Keyframe (a recording would stop), so the badge never installs itself.
 */
export function UpdateReadyBadge() {
  const progress = useUpdateProgress();
  if (progress?.status !== 'ready' || progress.progress < 0) return null;
  return (
    <a
      className="button button--small update-badge"
      href={routeHref({ page: 'settings', tab: 'updates' })}
      data-testid="update-ready-badge"
    >
      Update ready — {progress.version}
    </a>
  );
}
