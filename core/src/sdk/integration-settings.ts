// Declaring an integration's own settings: a TypeBox object schema on the class (`static settings`),
// rendered by the settings page and handed over, typed, as `IntegrationSettings.values`. `Type` is the
// host's TypeBox, so a plugin needs no copy of its own.
import { Type, type Static, type TObject, type TProperties } from '#typebox';

export { Type };

/**
 * The settings an integration declares, one field each: `Type.Boolean`, `Type.String` (with `format`,
 * `pattern`, `minLength`, `maxLength`), `Type.Number`/`Type.Integer` (with `minimum`, `maximum`), `Type.Enum`
 * of strings, or `Type.Array(Type.String())`; every field with a `default`, and a `title` (the label) and
 * `description` (the hint) for the settings page. A schema the page cannot render fails the integration at load.
 */
export function defineSettings<const Fields extends TProperties>(fields: Fields): TObject<Fields> {
  return Type.Object(fields);
}

/** The values a settings schema declares, as `IntegrationSettings.values` holds them. */
export type SettingsValues<Schema extends TObject> = Static<Schema>;
