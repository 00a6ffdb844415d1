// The `IntegrationSettings` a test hands an integration: the values a test sets, the rest the defaults
// its class declares (read and checked as the host does), and `change()` as a user's UpdateSettings.
import type { IntegrationSettings } from '../../sdk/game-integration.js';
import type { IntegrationSettingsSchema } from '../../protocol/index.js';
import { readSettingsSchema } from '../../settings/integration-settings-schema.js';
import { PluginSettings } from '../plugin-settings.js';

type Values = Readonly<Record<string, unknown>>;

export class ScriptedSettings implements IntegrationSettings {
  #stored: Record<string, unknown>;
  #schema: IntegrationSettingsSchema | undefined;
  readonly #settings: PluginSettings;

  /** `values`: the user's settings for this test; `port`: the manifest's `httpPush:<port>`. */
  constructor(key: string, options: { port?: number; values?: Values } = {}) {
    this.#stored = { ...options.values };
    this.#settings = new PluginSettings({
      key,
      ...(options.port === undefined ? {} : { port: options.port }),
      enabled: () => true,
      schema: () => this.#schema,
      stored: () => this.#stored,
      // A listener that throws fails the test's change() rather than being logged.
      logger: {
        debug: () => undefined,
        info: () => undefined,
        warn: () => undefined,
        error: (_message, fields) => {
          throw fields?.error;
        },
      },
    });
  }

  get key(): string {
    return this.#settings.key;
  }
  get port(): number | undefined {
    return this.#settings.port;
  }
  get enabled(): boolean {
    return true;
  }
  get values(): Values {
    return this.#settings.values;
  }

  onChange(listener: (values: Values) => void | Promise<void>): () => void {
    return this.#settings.onChange(listener);
  }

  /** What the integration's class declares (its static `settings`), before it is built; throws as the host's load would fail. */
  declare(declared: unknown): void {
    this.#schema = readSettingsSchema(declared);
    void this.#settings.refresh(); // no listener yet: the values are read at once
  }

  /** The user changed these settings: resolves once the integration's listeners ran. */
  async change(values: Values): Promise<void> {
    this.#stored = { ...this.#stored, ...values };
    await this.#settings.refresh();
  }
}
