// Long suites (100,000-frame fuzz, 30-minute soak) run only under `npm run test:long`.
export const longTestsSelected = (variables: NodeJS.ProcessEnv = process.env): boolean => variables.KEYFRAME_LONG_TESTS === '1';
