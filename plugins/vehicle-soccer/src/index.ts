// @keyframe/plugin-vehicle-soccer: Rocket League goals and assists, read from the event messages on screen.
// The default export is the integration the host loads; the rest is the pure logic, for reuse and tests.
export { VehicleSoccerIntegration as default, VehicleSoccerIntegration } from './vehicle-soccer-integration.js';
export { EVENT_KEYWORDS, EVENT_TEXT } from './event-text.js';
