// Tolerant reading of a settings object: each field that is missing or invalid takes its default,
// an array keeps its valid items, unknown keys are kept for whichever version wrote them.
import type { TSchema } from '#typebox';
import { Settings, validatorFor, type Keybinding } from '../protocol/index.js';

export interface NormalizedSettings {
  settings: Settings;
  /** Fields that were present but invalid, so a person can be told what was reset. */
  repairedFields: string[];
}

const fieldSchemas = Settings.properties as Record<string, TSchema>;

export function normalizeSettings(raw: Record<string, unknown>, defaults: Settings): NormalizedSettings {
  const result: Record<string, unknown> = { ...raw };
  const repairedFields: string[] = [];
  for (const [field, schema] of Object.entries(fieldSchemas)) {
    const fallback = (defaults as Record<string, unknown>)[field];
    if (!(field in raw)) {
      result[field] = fallback;
      continue;
    }
    const value = raw[field];
    if (validatorFor(schema).Check(value)) continue;
    repairedFields.push(field);
    result[field] = keepValidItems(schema, value) ?? fallback;
  }
  const settings = result as Settings;
  settings.gameIntegrations = { ...defaults.gameIntegrations, ...settings.gameIntegrations };
  settings.keybindings = withEveryAction(settings.keybindings, defaults.keybindings);
  return { settings, repairedFields };
}

/** For an array field: the items that are valid on their own; undefined when nothing can be kept. */
function keepValidItems(schema: TSchema, value: unknown): unknown[] | undefined {
  const itemSchema = (schema as { items?: TSchema }).items;
  if (!Array.isArray(value) || !itemSchema) return undefined;
  return value.filter((item) => validatorFor(itemSchema).Check(item));
}

/** Every keybind action exists once: one removed from the file comes back with its default keys. */
function withEveryAction(keybindings: Keybinding[], defaults: Keybinding[]): Keybinding[] {
  const seen = new Set<string>();
  const unique = keybindings.filter((binding) => !seen.has(binding.action) && seen.add(binding.action));
  return [...unique, ...defaults.filter((binding) => !seen.has(binding.action))];
}
