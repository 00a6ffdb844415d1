import type { ReactNode } from 'react';
import { useConnectionStatus } from '../connection';
import { routeHref, SETTINGS_TABS, type SettingsTab } from '../navigation';
import { useLatestEvent } from '../state/latest-events';
import { AccountSection } from './AccountSection';
import { DesktopSection } from './DesktopSection';
import { GamesSection } from './GamesSection';
import { IntegrationsSection } from './IntegrationsSection';
import { KeybindingsSection } from './KeybindingsSection';
import { PresetsSection } from './PresetsSection';
import { RecordingSection } from './RecordingSection';
import type { SectionProps } from './section-props';
import { StorageSection } from './StorageSection';
import { UpdatesSection } from './UpdatesSection';
import './settings.css';

const TABS = {
  recording: { label: 'Recording', Section: RecordingSection },
  presets: { label: 'Presets', Section: PresetsSection },
  storage: { label: 'Storage', Section: StorageSection },
  games: { label: 'Games', Section: GamesSection },
  integrations: { label: 'Game integrations', Section: IntegrationsSection },
  keybindings: { label: 'Keybindings', Section: KeybindingsSection },
  updates: { label: 'Updates', Section: UpdatesSection },
  desktop: { label: 'Desktop app', Section: DesktopSection },
  account: { label: 'Account', Section: AccountSection },
} as const satisfies Record<SettingsTab, { label: string; Section: (props: SectionProps) => ReactNode }>;

/** Settings in tabs; every change is sent at once and shown when the backend echoes Settings. */
export function SettingsPage({ tab }: { tab: SettingsTab }) {
  const settings = useLatestEvent('Settings');
  const state = useLatestEvent('State');
  const connected = useConnectionStatus() === 'open';
  if (!settings || !state) return null;
  const { Section } = TABS[tab];

  return (
    <section className="page settings-page" aria-labelledby="settings-title" data-testid="settings-page">
      <header className="page__header">
        <h1 className="page__title" id="settings-title">
          Settings
        </h1>
      </header>
      <nav className="settings-tabs" aria-label="Settings sections">
        {SETTINGS_TABS.map((each) => (
          <a
            key={each}
            className="settings-tabs__tab"
            href={routeHref({ page: 'settings', tab: each })}
            aria-current={each === tab ? 'page' : undefined}
            data-testid={`settings-tab-${each}`}
          >
            {TABS[each].label}
          </a>
        ))}
      </nav>
      <div className="settings-page__content" data-testid={`settings-${tab}`}>
        <Section settings={settings} state={state} connected={connected} />
      </div>
    </section>
  );
}
