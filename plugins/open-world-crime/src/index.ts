// @keyframe/plugin-open-world-crime: GTA V deaths, read from the WASTED of the death screen.
// The default export is the integration the host loads; the rest is the pure logic, for reuse and tests.
export { OpenWorldCrimeIntegration as default, OpenWorldCrimeIntegration } from './open-world-crime-integration.js';
export { WASTED_KEYWORDS, WASTED_TEXT } from './wasted-text.js';
