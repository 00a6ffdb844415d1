// NewConnection round trip with 5,000 content items: the service (dispatch, serialising Settings,
// State, GameList, AppVersion) against a bare `ws` server that answers with the same bytes.
import 'reflect-metadata';
import { ServiceOptions } from '@keyframe/core/host';
import { serviceOf, StatePublisher } from '@keyframe/core/internal';
import { formatDuration, formatLocalDateTime, type ContentItem } from '@keyframe/core/protocol';
import { createTempFolder } from '@keyframe/integration-testkit';
import { once } from 'node:events';
import { WebSocket } from 'ws';
import { echoServer } from './bare-ws.js';
import { measureAgainst, type Figure } from './harness.js';
import { startIsolatedService } from './in-process-service.js';

const CONTENT_ITEMS = 5000;
const RUNS = 25;
const NEW_CONNECTION = JSON.stringify({ Method: 'NewConnection' });

function contentItem(index: number): ContentItem {
  const created = new Date(Date.UTC(2026, 0, 1) + index * 60_000);
  const fileName = `2026-01-01_${String(index).padStart(6, '0')}`;
  return {
    id: index.toString(16).padStart(32, '0'),
    type: index % 4 === 0 ? 'Clip' : 'Session',
    title: '',
    game: `Game ${index % 17}`,
    bookmarks: [{ id: index + 1, type: 'Kill', subtype: null, time: formatDuration(index % 600), aiRating: null }],
    fileName,
    filePath: `/videos/Keyframe/Full Sessions/Game/${fileName}.mp4`,
    fileSize: '812.40 MB',
    fileSizeKb: 831897,
    duration: formatDuration(1800.5),
    createdAt: formatLocalDateTime(created),
    aiAnalysis: null,
    uploadId: null,
    gameDatabaseId: null,
    audioTrackNames: null,
    isImported: false,
    compressed: false,
  };
}

/** Opens a client, sends NewConnection, resolves when `expectedFrames` frames have arrived. */
function roundTrip(url: string, expectedFrames: number, capture?: string[]): () => Promise<void> {
  return async () => {
    const socket = new WebSocket(url);
    await once(socket, 'open');
    let received = 0;
    const done = new Promise<void>((resolve) =>
      socket.on('message', (data) => {
        capture?.push(data.toString());
        if (++received === expectedFrames) resolve();
      }),
    );
    socket.send(NEW_CONNECTION);
    await done;
    socket.terminate();
  };
}

export async function benchNewConnection(): Promise<Figure> {
  const data = await createTempFolder('keyframe-bench-');
  const service = await startIsolatedService(data.path, new ServiceOptions(data.path, 0, undefined), { consoleLevel: 'error' });
  try {
    serviceOf(service, StatePublisher).update({ content: Array.from({ length: CONTENT_ITEMS }, (_, index) => contentItem(index)) });
    // Settings, State, GameList, AppVersion: the synchronous part of the answer.
    const frames: string[] = [];
    await roundTrip(service.url, 4, frames)();
    const echo = await echoServer(frames);
    try {
      // In turn, so both meet the machine in the same state.
      const { medianMs: serviceMs, baselineMedianMs: baselineMs } = await measureAgainst(
        roundTrip(service.url, 4),
        roundTrip(echo.url, frames.length),
        RUNS,
        3,
      );
      const bytes = frames.reduce((total, frame) => total + Buffer.byteLength(frame), 0);
      return {
        name: `NewConnection round trip, ${CONTENT_ITEMS} items`,
        medianMs: serviceMs,
        baseline: 'bare ws, same bytes',
        baselineMedianMs: baselineMs,
        ratio: serviceMs / baselineMs,
        runs: RUNS,
        note: `${(bytes / 1024 / 1024).toFixed(2)} MiB per answer; the State frame is serialised once per State, so the ratio is the rest of the answer and the dispatch`,
      };
    } finally {
      await echo.close();
    }
  } finally {
    await service.stop();
    await data.remove();
  }
}
