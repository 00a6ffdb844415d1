import { expect } from 'chai';
import { ServiceOptions } from './service-options.js';

describe('ServiceOptions', () => {
  it('allows the origins of KEYFRAME_ALLOWED_ORIGINS and of each --allowed-origin, and no others', () => {
    const options = ServiceOptions.fromEnvironment(
      { dataFolder: '/tmp/keyframe-options', allowedOrigins: ['https://tools.example', ' '] },
      { KEYFRAME_ALLOWED_ORIGINS: 'http://localhost:5173, http://localhost:4173' },
    );
    expect(options.allowedOrigins).to.deep.equal(['http://localhost:5173', 'http://localhost:4173', 'https://tools.example']);
    expect(ServiceOptions.fromEnvironment({ dataFolder: '/tmp/keyframe-options' }, {}).allowedOrigins).to.deep.equal([]);
  });

  it('takes the dialect and the reference media port from the command line, else the environment', () => {
    const base = { dataFolder: '/tmp/keyframe-options' };
    const defaults = ServiceOptions.fromEnvironment(base, {});
    expect([defaults.dialect, defaults.referenceMediaPort]).to.deep.equal([undefined, 2222]);
    const fromEnvironment = ServiceOptions.fromEnvironment(base, { KEYFRAME_DIALECT: 'reference', KEYFRAME_REFERENCE_MEDIA_PORT: 'off' });
    expect([fromEnvironment.dialect, fromEnvironment.referenceMediaPort]).to.deep.equal(['reference', undefined]);
    const fromLine = ServiceOptions.fromEnvironment(
      { ...base, dialect: 'spec', referenceMediaPort: '2300' },
      { KEYFRAME_DIALECT: 'reference' },
    );
    expect([fromLine.dialect, fromLine.referenceMediaPort]).to.deep.equal(['spec', 2300]);
    expect(() => ServiceOptions.fromEnvironment({ ...base, dialect: 'Reference' }, {})).to.throw(
      '--dialect must be one of spec, reference',
    );
    expect(() => ServiceOptions.fromEnvironment({ ...base, referenceMediaPort: '70000' }, {})).to.throw('--reference-media-port must be');
  });
});
