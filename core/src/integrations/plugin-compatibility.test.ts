import { expect } from 'chai';
import { checkCompatibility } from './plugin-compatibility.js';

describe('plugin compatibility', () => {
  it('accepts a package whose engines.keyframe and core peer ranges hold this version', () => {
    expect(checkCompatibility({ engines: { keyframe: '^0.1.0' }, peerDependencies: { '@keyframe/core': '0.1.x' } }, '0.1.3')).to.deep.equal(
      {
        warnings: [],
      },
    );
  });

  it('refuses a package for another version, saying which range and which version', () => {
    expect(checkCompatibility({ engines: { keyframe: '^0.2.0' } }, '0.1.0')).to.deep.equal({
      problem: 'needs Keyframe ^0.2.0; this is 0.1.0',
    });
    expect(
      checkCompatibility({ engines: { keyframe: '>=0.1.0' }, peerDependencies: { '@keyframe/core': '^0.3.0' } }, '0.1.0'),
    ).to.deep.equal({
      problem: 'needs @keyframe/core ^0.3.0; this is 0.1.0',
    });
    expect(checkCompatibility({ engines: { keyframe: 'soon' } }, '0.1.0')).to.deep.equal({
      problem: 'engines.keyframe "soon" is not a semver range',
    });
  });

  it('accepts a package that declares no range, with a warning; a pre-release of the host is in range', () => {
    const result = checkCompatibility({ peerDependencies: { '@keyframe/core': 'file:../core' } }, '0.1.0');
    expect(result).to.have.property('warnings').with.length(2);
    expect(checkCompatibility({ engines: { keyframe: '^0.2.0' } }, '0.2.1-beta.1')).to.deep.equal({ warnings: [] });
  });
});
