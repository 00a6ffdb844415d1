// Imports an integration package's entry and checks that its default export can be constructed.
import { pathToFileURL } from 'node:url';
import type { IntegrationSettingsSchema } from '../protocol/index.js';
import type { GameIntegration } from '../sdk/game-integration.js';
import { readSettingsSchema } from '../settings/integration-settings-schema.js';

export type IntegrationClass = new (...args: never[]) => GameIntegration;

export async function loadIntegrationClass(entry: string): Promise<IntegrationClass> {
  const module = (await import(pathToFileURL(entry).href)) as { default?: unknown };
  const candidate = module.default;
  if (typeof candidate !== 'function') throw new Error(`${entry} has no default export class implementing GameIntegration`);
  const prototype = (candidate as { prototype?: Record<string, unknown> }).prototype;
  const missing = ['activate', 'deactivate'].filter((hook) => typeof prototype?.[hook] !== 'function');
  if (missing.length > 0) throw new Error(`the default export of ${entry} lacks ${missing.join(' and ')}()`);
  return candidate as IntegrationClass;
}

/** The settings the class declares as its static `settings` (undefined: none); throws when the settings page could not render them. */
export function declaredSettingsSchema(integrationClass: IntegrationClass): IntegrationSettingsSchema | undefined {
  return readSettingsSchema((integrationClass as { settings?: unknown }).settings);
}
