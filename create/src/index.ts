// create-keyframe-integration as a library: the generator that the command and this repository's
// `npm run new-integration` share.
export { FEED_KINDS, FEED_TEMPLATES, isFeedKind, type FeedKindName, type FeedTemplate } from './feed-kinds.js';
export { generateIntegration } from './generate.js';
export { CORE_PACKAGE, KIT_PACKAGE, standaloneLayout, workspaceLayout, type Layout } from './layouts.js';
export { keyProblem, KEY_PATTERN } from './names.js';
export { DEFAULT_FEED, resolveProject, UsageError, type IntegrationRequest, type Project } from './project.js';
