import { expect } from 'chai';
import { isLoopbackHostHeader } from './loopback.js';

describe('isLoopbackHostHeader', () => {
  it('accepts the names of this machine, with or without a port', () => {
    for (const host of ['127.0.0.1', '127.0.0.1:1340', 'localhost:1340', 'LOCALHOST', '[::1]:1340', '[::1]']) {
      expect(isLoopbackHostHeader(host), host).to.equal(true);
    }
  });

  it('refuses other names, including ones dressed up as loopback', () => {
    for (const host of ['attacker.example', '127.0.0.1.nip.io:1340', 'evil@127.0.0.1', '192.168.1.2:1340', '', 'localhost:1340/x']) {
      expect(isLoopbackHostHeader(host), host).to.equal(false);
    }
  });
});
