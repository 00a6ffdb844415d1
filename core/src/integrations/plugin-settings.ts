// What one integration instance gets under the `IntegrationSettings` token: its key, switch and port,
// and the values of the settings its class declares, with a word to its listeners when they change.
import type { IntegrationSettings, PluginLogger } from '../sdk/game-integration.js';
import type { IntegrationSettingsSchema } from '../protocol/index.js';
import { settingValues } from '../settings/integration-settings-schema.js';

type Values = Readonly<Record<string, unknown>>;

export interface PluginSettingsOptions {
  key: string;
  port?: number;
  /** Whether the user has it switched on now. */
  enabled(): boolean;
  /** What the class declares; undefined: no settings of its own. */
  schema(): IntegrationSettingsSchema | undefined;
  /** The user's entry `gameIntegrations.<key>` now; undefined where there is none (a tape replay). */
  stored(): Values | undefined;
  logger: PluginLogger;
}

export class PluginSettings implements IntegrationSettings {
  readonly key: string;
  readonly port?: number;
  #values: Values;
  readonly #listeners = new Set<(values: Values) => void | Promise<void>>();

  constructor(private readonly options: PluginSettingsOptions) {
    this.key = options.key;
    if (options.port !== undefined) this.port = options.port;
    this.#values = this.read();
  }

  get enabled(): boolean {
    return this.options.enabled();
  }

  get values(): Values {
    return this.#values;
  }

  onChange(listener: (values: Values) => void | Promise<void>): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Reads the stored entry again; listeners hear of it when a declared value differs (resolves once they ran). */
  async refresh(): Promise<void> {
    const before = this.#values;
    this.#values = this.read();
    if (JSON.stringify(this.#values) === JSON.stringify(before)) return;
    const values = this.#values;
    await Promise.all(
      [...this.#listeners].map(async (listener) => {
        try {
          await listener(values);
        } catch (error) {
          this.options.logger.error('a settings change listener failed', { key: this.key, error });
        }
      }),
    );
  }

  private read(): Values {
    return settingValues(this.options.schema(), this.options.stored());
  }
}
