import type { State } from '@keyframe/core/protocol';
import { LIBRARY_SECTIONS } from '../library';
import { SECTION_CONTENT_TYPE, SECTION_LABEL } from '../library/content-types';
import { routeHref, type Route } from '../navigation';

interface SidebarProps {
  route: Route;
  content: State['content'] | undefined;
  recording: boolean;
}

/** The app's navigation: the library's sections, Recording and Settings. */
export function Sidebar({ route, content, recording }: SidebarProps) {
  const currentPage = (page: Route['page']) => (route.page === page ? 'page' : undefined);
  return (
    <nav className="sidebar" aria-label="Main">
      <p className="sidebar__heading" id="sidebar-library">
        Library
      </p>
      <ul className="sidebar__list" aria-labelledby="sidebar-library">
        {LIBRARY_SECTIONS.map((section) => {
          const target: Route = { page: 'library', section };
          const count = content?.filter((item) => item.type === SECTION_CONTENT_TYPE[section]).length;
          return (
            <li key={section}>
              <a
                className="sidebar__link"
                href={routeHref(target)}
                aria-current={route.page === 'library' && route.section === section ? 'page' : undefined}
                data-testid={`nav-${section}`}
              >
                <span>{SECTION_LABEL[section]}</span>
                {count !== undefined && <span className="sidebar__count">{count}</span>}
              </a>
            </li>
          );
        })}
      </ul>
      <ul className="sidebar__list sidebar__list--bottom">
        <li>
          <a
            className="sidebar__link"
            href={routeHref({ page: 'recording' })}
            aria-current={currentPage('recording')}
            data-testid="nav-recording"
          >
            <span>Recording</span>
            {recording && (
              <span className="sidebar__live" title="Recording now">
                REC
              </span>
            )}
          </a>
        </li>
        <li>
          <a
            className="sidebar__link"
            href={routeHref({ page: 'settings', tab: 'recording' })}
            aria-current={currentPage('settings')}
            data-testid="nav-settings"
          >
            <span>Settings</span>
          </a>
        </li>
      </ul>
    </nav>
  );
}
