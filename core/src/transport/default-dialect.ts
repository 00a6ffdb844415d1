// The dialect of a connection that does not ask for one: the `--dialect` option (or KEYFRAME_DIALECT),
// else the `wireDialect` setting. Read when a connection opens: a changed setting applies to the next one.
import { injectable } from 'tsyringe';
import type { WireDialect } from '../protocol/settings.js';
import { ServiceOptions } from '../service-options.js';
import { SettingsStore } from '../settings/settings-store.js';

@injectable()
export class DefaultDialect {
  constructor(
    private readonly options: ServiceOptions,
    private readonly settings: SettingsStore,
  ) {}

  get current(): WireDialect {
    return this.options.dialect ?? this.settings.current.wireDialect;
  }
}
