import { expect } from 'chai';
import { chooseCaptureSource } from './capture-source.js';

describe('capture source selection', () => {
  it('chooses the synthetic source when asked or when there is no display, and says why it falls back otherwise', () => {
    expect(chooseCaptureSource({ platform: 'linux', home: '/h', variables: { KEYFRAME_CAPTURE: 'synthetic', DISPLAY: ':0' } })).to.not.have.property('fallbackReason');
    expect(chooseCaptureSource({ platform: 'linux', home: '/h', variables: {} })).to.not.have.property('fallbackReason');
    expect(chooseCaptureSource({ platform: 'linux', home: '/h', variables: { DISPLAY: ':0' } }).fallbackReason).to.match(/not available/);
    expect(chooseCaptureSource({ platform: 'win32', home: '/h', variables: {} }).source.name).to.equal('synthetic');
    expect(chooseCaptureSource({ platform: 'linux', home: '/h', variables: { KEYFRAME_CAPTURE: 'webcam' } }).fallbackReason).to.match(/webcam/);
  });
});
