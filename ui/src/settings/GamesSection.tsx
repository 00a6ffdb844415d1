import { PRESET_NAMES, RECORDING_MODES, type GameSetting, type Settings } from '@keyframe/core/protocol';
import { useId, useRef, useState } from 'react';
import { Switch } from '../components/Switch';
import { connection, useServerEvent } from '../connection';
import { SettingsGroup } from './fields';
import type { SectionProps } from './section-props';
import { updateSettings } from './update-settings';

const INHERIT = 'inherit';

/** A game added by the user, or the paths of a game already listed joined with the new one. */
function withExecutable(games: GameSetting[], selected: { name: string; paths: string[] }): GameSetting[] {
  const existing = games.find((game) => game.name === selected.name);
  if (!existing) return [...games, { name: selected.name, paths: selected.paths, record: true }];
  const paths = [...new Set([...existing.paths, ...selected.paths])];
  return games.map((game) => (game === existing ? { ...game, paths } : game));
}

/** The unified games list: which games are recorded, and their own quality and mode. */
export function GamesSection({ settings, connected }: SectionProps) {
  const [executable, setExecutable] = useState('');
  const pickerPending = useRef(false);
  const inputId = useId();
  useServerEvent('SelectedGameExecutable', (selected) => {
    if (!pickerPending.current) return;
    pickerPending.current = false;
    updateSettings({ games: withExecutable(settings.games, selected) });
    setExecutable('');
  });
  const save = (games: GameSetting[]) => updateSettings({ games });
  const replace = (target: GameSetting, changes: Partial<GameSetting>) =>
    save(settings.games.map((game) => (game === target ? { ...game, ...changes } : game)));
  const select = () => {
    pickerPending.current = true;
    const path = executable.trim();
    connection.send('SelectGameExecutable', path ? { FilePath: path } : {});
  };

  return (
    <>
      <SettingsGroup
        title="Add a game"
        description="Keyframe records a game when its executable runs. Give the full path of the executable, or leave it empty to pick one."
      >
        <form
          className="add-game"
          onSubmit={(event) => {
            event.preventDefault();
            select();
          }}
        >
          <label className="visually-hidden" htmlFor={inputId}>
            Executable path
          </label>
          <input
            id={inputId}
            className="input add-game__input"
            placeholder="/path/to/game executable"
            value={executable}
            spellCheck={false}
            data-testid="game-executable"
            onChange={(event) => setExecutable(event.target.value)}
          />
          <button type="submit" className="button button--primary" disabled={!connected} data-testid="add-game">
            Add executable
          </button>
        </form>
      </SettingsGroup>
      <SettingsGroup
        title="Games"
        description="Record on: always recorded when running. Record off: never recorded. Overrides replace the global quality or mode for that game."
      >
        {settings.games.length === 0 ? (
          <p className="empty" data-testid="games-empty">
            No games yet. Games you play are added here, or add one above.
          </p>
        ) : (
          <ul className="game-list">
            {settings.games.map((game) => (
              <GameRow
                key={game.name}
                game={game}
                settings={settings}
                disabled={!connected}
                onChange={(changes) => replace(game, changes)}
                onRemove={() => save(settings.games.filter((each) => each !== game))}
              />
            ))}
          </ul>
        )}
      </SettingsGroup>
    </>
  );
}

interface GameRowProps {
  game: GameSetting;
  settings: Settings;
  disabled: boolean;
  onChange: (changes: Partial<GameSetting>) => void;
  onRemove: () => void;
}

function GameRow({ game, settings, disabled, onChange, onRemove }: GameRowProps) {
  const nameId = useId();
  const qualityId = useId();
  const modeId = useId();
  const quality = game.qualityOverride?.preset ?? INHERIT;
  const mode = game.recordingModeOverride?.recordingMode ?? INHERIT;
  return (
    <li className="game-list__item" data-testid="game-row">
      <div className="game-list__text">
        <span className="game-list__name" id={nameId}>
          {game.name}
        </span>
        <span className="game-list__paths">{game.paths.join(', ') || 'No executable'}</span>
      </div>
      <label className="game-list__override" htmlFor={qualityId}>
        Quality
        <select
          id={qualityId}
          className="input input--compact"
          value={quality}
          disabled={disabled}
          onChange={(event) => {
            const preset = PRESET_NAMES.find((name) => name === event.target.value);
            onChange({
              qualityOverride: preset
                ? {
                    preset,
                    resolution: settings.resolution,
                    frameRate: settings.frameRate,
                    rateControl: settings.rateControl,
                    crfValue: settings.crfValue,
                    cqLevel: settings.cqLevel,
                    bitrate: settings.bitrate,
                    minBitrate: settings.minBitrate,
                    maxBitrate: settings.maxBitrate,
                    encoder: settings.encoder,
                    codec: null,
                  }
                : null,
            });
          }}
        >
          <option value={INHERIT}>Global</option>
          {PRESET_NAMES.map((preset) => (
            <option key={preset} value={preset}>
              {preset}
            </option>
          ))}
        </select>
      </label>
      <label className="game-list__override" htmlFor={modeId}>
        Mode
        <select
          id={modeId}
          className="input input--compact"
          value={mode}
          disabled={disabled}
          onChange={(event) => {
            const recordingMode = RECORDING_MODES.find((name) => name === event.target.value);
            onChange({
              recordingModeOverride: recordingMode
                ? { recordingMode, replayBufferDuration: settings.replayBufferDuration, replayBufferMaxSize: settings.replayBufferMaxSize }
                : null,
            });
          }}
        >
          <option value={INHERIT}>Global</option>
          {RECORDING_MODES.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <span className="game-list__record">
        Record
        <Switch checked={game.record} disabled={disabled} labelledBy={nameId} onToggle={() => onChange({ record: !game.record })} />
      </span>
      <button type="button" className="button button--small" disabled={disabled} onClick={onRemove} aria-label={`Remove ${game.name}`}>
        Remove
      </button>
    </li>
  );
}
