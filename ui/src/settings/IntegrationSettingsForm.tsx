// The settings an integration declares (State.integrationSettings), one control per field, under its
// row in Settings → Integrations. Like the switch, they cannot be changed while a recording runs.
import type {
  IntegrationSetting,
  IntegrationSettingField,
  IntegrationSettingsSchema,
  IntegrationSettingValue,
} from '@keyframe/core/protocol';
import { NumberField, SelectField, TextField, ToggleField } from './fields';
import { updateSettings } from './update-settings';

interface IntegrationSettingsFormProps {
  integrationKey: string;
  schema: IntegrationSettingsSchema;
  /** The stored entry `gameIntegrations.<key>`; a field missing or invalid there shows its default. */
  stored: Readonly<IntegrationSetting>;
  /** Why nothing can be changed now; undefined when it can. */
  lockedReason: string | undefined;
  connected: boolean;
}

export function IntegrationSettingsForm({ integrationKey, schema, stored, lockedReason, connected }: IntegrationSettingsFormProps) {
  const fields = Object.entries(schema.properties);
  if (fields.length === 0) return null;
  const save = (name: string, value: IntegrationSettingValue) =>
    updateSettings({ gameIntegrations: { [integrationKey]: { ...stored, [name]: value } } });
  return (
    <div className="integration-settings" data-testid={`integration-settings-${integrationKey}`}>
      {lockedReason && <p className="setting-row__hint">{lockedReason}</p>}
      {fields.map(([name, field]) => (
        <SettingControl
          key={name}
          name={name}
          field={field}
          value={stored[name]}
          disabled={lockedReason !== undefined || !connected}
          testId={`integration-setting-${integrationKey}-${name}`}
          onChange={(value) => save(name, value)}
        />
      ))}
    </div>
  );
}

interface SettingControlProps {
  name: string;
  field: IntegrationSettingField;
  value: IntegrationSettingValue | undefined;
  disabled: boolean;
  testId: string;
  onChange: (value: IntegrationSettingValue) => void;
}

/** The control for one field's kind; a stored value of another kind shows the default. */
function SettingControl({ name, field, value, disabled, testId, onChange }: SettingControlProps) {
  const common = { label: field.title ?? name, ...(field.description ? { hint: field.description } : {}), disabled, testId };
  if ('enum' in field) {
    const chosen = typeof value === 'string' && field.enum.includes(value) ? value : field.default;
    return <SelectField {...common} value={chosen} options={field.enum} onChange={onChange} />;
  }
  switch (field.type) {
    case 'boolean':
      return <ToggleField {...common} checked={typeof value === 'boolean' ? value : field.default} onChange={onChange} />;
    case 'string':
      return <TextField {...common} value={typeof value === 'string' ? value : field.default} onCommit={onChange} />;
    case 'array': {
      const items = Array.isArray(value) ? value : field.default;
      const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');
      return <TextField {...common} multiline value={items.join('\n')} onCommit={(text) => onChange(lines(text))} />;
    }
    default:
      return (
        <NumberField
          {...common}
          value={typeof value === 'number' ? value : field.default}
          min={field.minimum ?? Number.MIN_SAFE_INTEGER}
          {...(field.maximum === undefined ? {} : { max: field.maximum })}
          step={field.type === 'integer' ? 1 : 0.1}
          onCommit={onChange}
        />
      );
  }
}
