// Which settings each loaded integration declares: the integration host fills it as classes load, the
// settings service checks `UpdateSettings` against it, and State shows it to the settings page.
import { injectable } from 'tsyringe';
import type { IntegrationSettingsSchema } from '../protocol/index.js';
import { TypedEvents } from '../support/typed-events.js';

@injectable()
export class IntegrationSettingsSchemas {
  readonly #schemas = new Map<string, IntegrationSettingsSchema>();
  /** Every declared schema by key, after each change. */
  readonly events = new TypedEvents<{ changed: Record<string, IntegrationSettingsSchema> }>();

  /** The schema `key` declares; undefined while its class has not loaded, or when it declares none. */
  get(key: string): IntegrationSettingsSchema | undefined {
    return this.#schemas.get(key);
  }

  get all(): Record<string, IntegrationSettingsSchema> {
    return Object.fromEntries(this.#schemas);
  }

  /** What `key`'s class declares (undefined: nothing); announced when that differs from before. */
  declare(key: string, schema: IntegrationSettingsSchema | undefined): void {
    if (JSON.stringify(this.#schemas.get(key)) === JSON.stringify(schema)) return;
    if (schema) this.#schemas.set(key, schema);
    else this.#schemas.delete(key);
    this.events.emit('changed', this.all);
  }
}
