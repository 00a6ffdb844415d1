// What a new integration will be called and made of, resolved from what the author asked for:
// sensible defaults from the folder name, and a refusal (UsageError) for anything invalid, before
// a single file is written.
import path from 'node:path';
import { FEED_KINDS, FEED_TEMPLATES, isFeedKind, type FeedKindName } from './feed-kinds.js';
import {
  classNameOf,
  displayNameFromFolder,
  keyFromFolder,
  keyProblem,
  packageNameProblem,
  placeholderPort,
  portProblem,
  slugOf,
} from './names.js';

/** A refusal the author can fix by changing the command line. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** What was asked for; everything but the folder is optional. */
export interface IntegrationRequest {
  readonly folder: string;
  readonly feed?: string;
  readonly key?: string;
  readonly displayName?: string;
  readonly packageName?: string;
  readonly port?: string;
}

export interface Project {
  /** Absolute folder the package is written to. */
  readonly folder: string;
  readonly feed: FeedKindName;
  readonly key: string;
  readonly displayName: string;
  readonly packageName: string;
  /** The loopback port, for the kinds that take one. */
  readonly port: number | undefined;
  /** Kebab-case form of the key: file names and executables. */
  readonly slug: string;
  readonly className: string;
}

export const DEFAULT_FEED: FeedKindName = 'httpPush';

export function resolveProject(request: IntegrationRequest, cwd: string): Project {
  const folder = path.resolve(cwd, request.folder);
  const folderName = path.basename(folder);
  const feed = request.feed ?? DEFAULT_FEED;
  if (!isFeedKind(feed)) throw new UsageError(`unknown feed kind "${feed}": use one of ${FEED_KINDS.join(', ')}`);

  const key = request.key ?? keyFromFolder(folderName);
  const badKey = keyProblem(key);
  if (badKey !== undefined) {
    throw new UsageError(
      request.key === undefined ? `cannot make a key of the folder name "${folderName}": give one with --key (${badKey})` : badKey,
    );
  }
  const slug = slugOf(key);
  const packageName = request.packageName ?? `keyframe-plugin-${slug}`;
  const badName = packageNameProblem(packageName);
  if (badName !== undefined) throw new UsageError(badName);

  const displayName = (request.displayName ?? displayNameFromFolder(folderName)).trim();
  if (displayName === '') throw new UsageError('the display name is empty: give one with --display-name');
  // It is written into TypeScript strings and JSON as it is.
  if (/["'`\\$<>\p{Cc}]/u.test(displayName)) {
    throw new UsageError(`display name "${displayName}" may not hold quotes, backslashes, $, < or > or control characters`);
  }

  const takesPort = FEED_TEMPLATES[feed].takesPort;
  if (request.port !== undefined && !takesPort) {
    const portKinds = FEED_KINDS.filter((kind) => FEED_TEMPLATES[kind].takesPort);
    throw new UsageError(`--port does not apply to a ${feed} feed: only to ${portKinds.join(', ')}`);
  }
  let port: number | undefined;
  if (takesPort) {
    if (request.port !== undefined) {
      const badPort = portProblem(request.port);
      if (badPort !== undefined) throw new UsageError(badPort);
    }
    port = request.port === undefined ? placeholderPort(key) : Number(request.port);
  }
  return { folder, feed, key, displayName, packageName, port, slug, className: classNameOf(key) };
}
