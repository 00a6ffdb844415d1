#!/usr/bin/env node
// The API report of the SDK (`@keyframe/core`, core/dist/index.d.ts), made by API Extractor with
// core/api-extractor.json. Without arguments it rewrites core/api-report.api.md; with --check it exits 1
// when the built public surface differs from the committed report. Needs a build first.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const root = fileURLToPath(new URL('..', import.meta.url));
const check = process.argv.includes('--check');
const config = ExtractorConfig.loadFileAndPrepare(path.join(root, 'core', 'api-extractor.json'));
const report = path.relative(root, config.reportFilePath);

const result = Extractor.invoke(config, {
  localBuild: !check,
  messageCallback: (message) => {
    // The changed-report warning is replaced by the message below; progress chatter is not needed.
    if (message.logLevel === 'info' || message.logLevel === 'verbose' || message.messageId === 'console-api-report-not-copied') {
      message.handled = true;
    }
  },
});

if (check && result.apiReportChanged) {
  console.error(`The public surface of @keyframe/core (core/dist/index.d.ts) differs from ${report}:`);
  console.error('run npm run api-report and commit the change (review it: every line is a promise to plugin authors).');
  process.exit(1);
}
if (!result.succeeded) process.exit(1);
console.log(check ? `${report} matches the built SDK` : `wrote ${report}`);
