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
});
