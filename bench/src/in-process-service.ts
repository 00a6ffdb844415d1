// The service started in this process (as a desktop shell embeds it), its videos in a temp folder and
// a protocol client connected: for media jobs that start from a library item the bench places itself.
import 'reflect-metadata';
import { KeyframeService, ServiceOptions, type StartOptions } from '@keyframe/core/host';
import { ContentLibrary, FfmpegToolbox, serviceOf, type FfmpegTools } from '@keyframe/core/internal';
import { ProtocolClient, createTempFolder } from '@keyframe/integration-testkit';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';

export interface InProcessService {
  library: ContentLibrary;
  client: ProtocolClient;
  tools: FfmpegTools;
  /** `<contentFolder>/Full Sessions/Bench`, created. */
  sessionsFolder: string;
  /** A scratch folder outside the library, for the bare baselines' output. */
  scratch: string;
  stop(): Promise<void>;
}

/**
 * Starts the service in this process seeing only the games started inside `folder`, as the test kit's
 * ServiceProcess does: a stand-in game of a suite running beside the bench must not start a recording
 * here. Game detection reads the variable once, at start.
 */
export async function startIsolatedService(
  folder: string,
  options: ServiceOptions,
  startOptions: StartOptions = {},
): Promise<KeyframeService> {
  const previous = process.env.KEYFRAME_GAME_PROCESS_ROOT;
  process.env.KEYFRAME_GAME_PROCESS_ROOT = folder;
  try {
    const service = await KeyframeService.start(options, startOptions);
    await service.loaded();
    return service;
  } finally {
    if (previous === undefined) delete process.env.KEYFRAME_GAME_PROCESS_ROOT;
    else process.env.KEYFRAME_GAME_PROCESS_ROOT = previous;
  }
}

export async function startInProcessService(prefix: string): Promise<InProcessService> {
  const temp = await createTempFolder(prefix);
  const videos = path.join(temp.path, 'Videos');
  const service = await startIsolatedService(temp.path, new ServiceOptions(path.join(temp.path, 'data'), 0, undefined, [], videos), {
    consoleLevel: 'error',
  });
  const client = await ProtocolClient.connect(service.url);
  const { settings } = await client.handshake();
  const sessionsFolder = path.join(settings.contentFolder, 'Full Sessions', 'Bench');
  const scratch = path.join(temp.path, 'scratch');
  await mkdir(sessionsFolder, { recursive: true });
  await mkdir(scratch, { recursive: true });
  return {
    library: serviceOf(service, ContentLibrary),
    client,
    tools: serviceOf(service, FfmpegToolbox).requireFfmpeg('The bench'),
    sessionsFolder,
    scratch,
    async stop() {
      await client.close();
      await service.stop();
      await temp.remove();
    },
  };
}
