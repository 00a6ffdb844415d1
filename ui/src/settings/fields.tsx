// Labelled form controls for settings. Text and number fields commit on Enter or when they lose
// focus, so a half-typed value is never sent.
import { useEffect, useId, useState, type ReactNode } from 'react';
import { Switch } from '../components/Switch';
import { useServerEvent } from '../connection';

interface RowProps {
  label: string;
  hint?: string;
  children: (id: string) => ReactNode;
}

export function SettingRow({ label, hint, children }: RowProps) {
  const id = useId();
  return (
    <div className="setting-row">
      <div className="setting-row__text">
        <label className="setting-row__label" htmlFor={id} id={`${id}-label`}>
          {label}
        </label>
        {hint && <p className="setting-row__hint">{hint}</p>}
      </div>
      <div className="setting-row__control">{children(id)}</div>
    </div>
  );
}

interface SelectFieldProps<T extends string> {
  label: string;
  hint?: string;
  value: T;
  options: readonly T[] | readonly { value: T; label: string }[];
  disabled?: boolean;
  testId?: string;
  onChange: (value: T) => void;
}

export function SelectField<T extends string>({ label, hint, value, options, disabled, testId, onChange }: SelectFieldProps<T>) {
  const entries = options.map((option) => (typeof option === 'string' ? { value: option, label: option } : option));
  return (
    <SettingRow label={label} hint={hint}>
      {(id) => (
        <select
          id={id}
          className="input"
          value={value}
          disabled={disabled}
          data-testid={testId}
          onChange={(event) => {
            const chosen = entries.find((entry) => entry.value === event.target.value);
            if (chosen) onChange(chosen.value);
          }}
        >
          {entries.map((entry) => (
            <option key={entry.value} value={entry.value}>
              {entry.label}
            </option>
          ))}
        </select>
      )}
    </SettingRow>
  );
}

interface NumberFieldProps {
  label: string;
  hint?: string;
  value: number;
  min: number;
  max?: number;
  step?: number;
  unit?: string;
  disabled?: boolean;
  testId?: string;
  onCommit: (value: number) => void;
}

export function NumberField({ label, hint, value, min, max, step = 1, unit, disabled, testId, onCommit }: NumberFieldProps) {
  const [draft, setDraft] = useState<string>();
  const commit = () => {
    if (draft === undefined) return;
    setDraft(undefined);
    const parsed = Number(draft);
    if (draft.trim() === '' || !Number.isFinite(parsed)) return;
    const clamped = Math.min(max ?? Infinity, Math.max(min, parsed));
    if (clamped !== value) onCommit(clamped);
  };
  return (
    <SettingRow label={label} hint={hint}>
      {(id) => (
        <span className="number-field">
          <input
            id={id}
            className="input input--number"
            type="number"
            min={min}
            max={max}
            step={step}
            value={draft ?? String(value)}
            disabled={disabled}
            data-testid={testId}
            onChange={(event) => setDraft(event.target.value)}
            onBlur={commit}
            onKeyDown={(event) => {
              if (event.key === 'Enter') commit();
            }}
          />
          {unit && <span className="number-field__unit">{unit}</span>}
        </span>
      )}
    </SettingRow>
  );
}

interface TextFieldProps {
  label: string;
  hint?: string;
  value: string;
  /** Several lines (e.g. one item a line). */
  multiline?: boolean;
  disabled?: boolean;
  testId?: string;
  onCommit: (value: string) => void;
}

export function TextField({ label, hint, value, multiline = false, disabled, testId, onCommit }: TextFieldProps) {
  const [draft, setDraft] = useState<string>();
  const commit = () => {
    if (draft === undefined) return;
    setDraft(undefined);
    if (draft !== value) onCommit(draft);
  };
  const common = {
    className: 'input input--text',
    value: draft ?? value,
    disabled,
    'data-testid': testId,
    onBlur: commit,
  };
  return (
    <SettingRow label={label} hint={hint}>
      {(id) =>
        multiline ? (
          <textarea id={id} rows={3} {...common} onChange={(event) => setDraft(event.target.value)} />
        ) : (
          <input
            id={id}
            type="text"
            {...common}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') commit();
            }}
          />
        )
      }
    </SettingRow>
  );
}

interface ToggleFieldProps {
  label: string;
  hint?: string;
  checked: boolean;
  disabled?: boolean;
  testId?: string;
  onChange: (checked: boolean) => void;
}

export function ToggleField({ label, hint, checked, disabled = false, testId, onChange }: ToggleFieldProps) {
  return (
    <SettingRow label={label} hint={hint}>
      {(id) => (
        <Switch
          id={id}
          checked={checked}
          disabled={disabled}
          labelledBy={`${id}-label`}
          testId={testId}
          onToggle={() => onChange(!checked)}
        />
      )}
    </SettingRow>
  );
}

interface SliderFieldProps {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  disabled?: boolean;
  format: (value: number) => string;
  onCommit: (value: number) => void;
}

/**
 * A range input; the value is sent when the pointer or key is released, not on every step. The value sent stays
 * shown until the service's settings carry it (or it refuses them), so a quick next step starts from it.
 */
export function SliderField({ label, value, min, max, step, disabled, format, onCommit }: SliderFieldProps) {
  const [draft, setDraft] = useState<number>();
  const [sent, setSent] = useState<number>();
  const arrived = sent !== undefined && Math.abs(sent - value) < step / 2;
  useEffect(() => {
    if (arrived) setSent(undefined);
  }, [arrived]);
  useServerEvent('CommandRejected', ({ method }) => {
    if (method === 'UpdateSettings') setSent(undefined);
  });
  const commit = () => {
    if (draft !== undefined && draft !== (sent ?? value)) {
      onCommit(draft);
      setSent(draft);
    }
    setDraft(undefined);
  };
  const shown = draft ?? (arrived ? value : (sent ?? value));
  return (
    <SettingRow label={label}>
      {(id) => (
        <span className="slider-field">
          <input
            id={id}
            type="range"
            min={min}
            max={max}
            step={step}
            value={shown}
            disabled={disabled}
            onChange={(event) => setDraft(Number(event.target.value))}
            onPointerUp={commit}
            onKeyUp={commit}
            onBlur={commit}
          />
          <output htmlFor={id} className="slider-field__value">
            {format(shown)}
          </output>
        </span>
      )}
    </SettingRow>
  );
}

/** A titled group of rows inside a settings tab. */
export function SettingsGroup({
  title,
  description,
  actions,
  children,
}: {
  title: string;
  description?: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <section className="settings-group" aria-labelledby={id}>
      <header className="settings-group__header">
        <div>
          <h2 className="settings-group__title" id={id}>
            {title}
          </h2>
          {description && <p className="settings-group__description">{description}</p>}
        </div>
        {actions}
      </header>
      <div className="settings-group__body">{children}</div>
    </section>
  );
}
