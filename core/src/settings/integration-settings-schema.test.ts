import { expect } from 'chai';
import Type from 'typebox';
import { defineSettings } from '../sdk/integration-settings.js';
import { readSettingsSchema, settingProblems, settingValues } from './integration-settings-schema.js';

const declared = defineSettings({
  gameFolder: Type.String({ default: '', title: 'Game folder', description: 'Where your launcher keeps the game' }),
  pollSeconds: Type.Integer({ default: 2, minimum: 1, maximum: 60 }),
  announce: Type.Boolean({ default: true }),
  region: Type.Union([Type.Literal('eu'), Type.Literal('na')], { default: 'eu' }),
  extraLogs: Type.Array(Type.String(), { default: [] }),
});

describe('integration settings schema', () => {
  it('reads a TypeBox schema as plain JSON Schema, a union of string literals as an enum', () => {
    const schema = readSettingsSchema(declared)!;
    expect(schema.properties.gameFolder).to.deep.equal({
      type: 'string',
      default: '',
      title: 'Game folder',
      description: 'Where your launcher keeps the game',
    });
    expect(schema.properties.region).to.deep.equal({ enum: ['eu', 'na'], default: 'eu' });
    expect(readSettingsSchema(undefined)).to.equal(undefined);
  });

  it('refuses what the settings page cannot render, saying which field and why', () => {
    const refusal = (fields: Parameters<typeof defineSettings>[0]) => () => readSettingsSchema(defineSettings(fields));
    expect(refusal({ nested: Type.Object({ a: Type.String() }, { default: { a: '' } }) })).to.throw(
      'its settings cannot be shown in the settings page: "nested" is not a boolean, string, number, integer, string enum or array of strings',
    );
    expect(refusal({ name: Type.String() })).to.throw('its settings cannot be shown in the settings page: "name": missing default');
    expect(refusal({ names: Type.Array(Type.Integer(), { default: [] }) })).to.throw('"names"/items/type: must be equal to constant');
    expect(refusal({ enabled: Type.Boolean({ default: true }) })).to.throw(`"enabled" is the host's own switch`);
    expect(refusal({ rate: Type.Integer({ default: 0, minimum: 1 }) })).to.throw(
      'the default of "rate" (0) is not a whole number of at least 1',
    );
    expect(() => readSettingsSchema(Type.String())).to.throw('its static settings is not an object schema');
  });

  it('gives the stored values where valid and the defaults elsewhere, leaving undeclared keys out', () => {
    const schema = readSettingsSchema(declared)!;
    const values = settingValues(schema, { enabled: false, gameFolder: '/games/mc', pollSeconds: 99, region: 'na', leftover: 1 });
    expect(values).to.deep.equal({ gameFolder: '/games/mc', pollSeconds: 2, announce: true, region: 'na', extraLogs: [] });
    expect(settingValues(undefined, { enabled: true, x: 1 })).to.deep.equal({});
  });

  it('names each changed field that is refused and what it takes; unchanged ones are not judged', () => {
    const schema = readSettingsSchema(declared)!;
    const before = { enabled: true, pollSeconds: 500 };
    expect(settingProblems('arena', schema, { enabled: false, pollSeconds: 500 }, before)).to.deep.equal([]);
    expect(settingProblems('arena', schema, { pollSeconds: 0, region: 'asia', announce: 'yes', colour: 'red' }, before)).to.deep.equal([
      'gameIntegrations.arena.pollSeconds is 0, it must be a whole number from 1 to 60',
      'gameIntegrations.arena.region is "asia", it must be one of "eu", "na"',
      'gameIntegrations.arena.announce is "yes", it must be true or false',
      'gameIntegrations.arena.colour is not a setting of arena (its settings: gameFolder, pollSeconds, announce, region, extraLogs)',
    ]);
  });
});
