// `npm run bench`: every figure as a ratio against a baseline measured in the same run.
import 'reflect-metadata';
import { fileURLToPath } from 'node:url';
import { printTable, writeResults, type Figure } from './harness.js';
import { benchClips } from './clip-bench.js';
import { benchCommandThroughput } from './command-throughput-bench.js';
import { benchCompression } from './compression-bench.js';
import { benchFolderLatency } from './folder-latency-bench.js';
import { benchHighlight } from './highlight-bench.js';
import { benchIdleResources } from './idle-resources-bench.js';
import { benchNewConnection } from './new-connection-bench.js';
import { benchPollLatency } from './poll-latency-bench.js';
import { benchPushLatency } from './push-latency-bench.js';
import { benchRecorder } from './recorder-bench.js';
import { benchScreenText } from './screen-text-bench.js';
import { benchStartup } from './startup-bench.js';
import { benchState } from './state-bench.js';
import { benchTailLatency } from './tail-latency-bench.js';

const RESULTS = fileURLToPath(new URL('../results.json', import.meta.url));

const figures: Figure[] = [];
figures.push(await benchNewConnection());
figures.push(await benchCommandThroughput());
figures.push(await benchPushLatency());
figures.push(await benchPollLatency());
figures.push(await benchTailLatency());
figures.push(await benchFolderLatency());
figures.push(await benchStartup());
figures.push(...(await benchIdleResources()));
figures.push(...(await benchState()));
figures.push(...(await benchRecorder()));
figures.push(...(await benchClips()));
figures.push(await benchHighlight());
figures.push(await benchCompression());
figures.push(...(await benchScreenText()));
printTable(figures);
await writeResults(RESULTS, figures);
console.log(`\nwritten to ${RESULTS}`);
