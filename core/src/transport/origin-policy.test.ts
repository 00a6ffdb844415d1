import { expect } from 'chai';
import { ServiceOptions } from '../service-options.js';
import { OriginPolicy } from './origin-policy.js';

const policyAllowing = (...allowedOrigins: string[]) =>
  new OriginPolicy(new ServiceOptions('/tmp/keyframe-origins', 44030, undefined, allowedOrigins));

describe('OriginPolicy', () => {
  it('allows every port of a loopback range, on that name and scheme only', () => {
    const policy = policyAllowing('http://localhost:44040-44139', 'https://tools.example');
    const allowed = ['http://localhost:44040', 'http://localhost:44100', 'http://LOCALHOST:44139/', 'https://tools.example'];
    for (const origin of allowed) expect(policy.allows(origin, 44030), origin).to.equal(true);
    const refused = [
      'http://localhost:44039',
      'http://localhost:44140',
      'http://localhost:044050',
      'http://localhost:44050.evil.example',
      'http://127.0.0.1:44050',
      'https://localhost:44050',
      'http://localhost',
      'http://localhost:5173',
      'https://tools.example:8443',
      'null',
    ];
    for (const origin of refused) expect(policy.allows(origin, 44030), origin).to.equal(false);
  });

  it("allows the service's own pages on the main port only", () => {
    const policy = policyAllowing();
    expect(policy.allows('http://127.0.0.1:44030', 44030)).to.equal(true);
    expect(policy.allows('http://localhost:44030', 44030)).to.equal(true);
    expect(policy.allows('http://localhost:2222', 44030)).to.equal(false);
  });

  it('refuses a port range on a host that is not this machine, or one that does not go up, at start-up', () => {
    const options = (origin: string) => () =>
      ServiceOptions.fromEnvironment({ dataFolder: '/tmp/keyframe-origins', allowedOrigins: [origin] }, {});
    expect(options('http://example.com:44040-44139')).to.throw('a port range is only allowed on this machine');
    expect(options('http://localhost.example.com:44040-44139')).to.throw('not on localhost.example.com');
    expect(options('http://localhost:44139-44040')).to.throw('the port range must go up');
    expect(options('http://[::1]:0-10')).to.throw('the port range must go up');
    expect(options('http://[::1]:44040-44139')().allowedOrigins).to.deep.equal(['http://[::1]:44040-44139']);
    expect(() => policyAllowing('http://192.168.1.2:1-100')).to.throw('a port range is only allowed on this machine');
  });
});
