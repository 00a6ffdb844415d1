// What a running service is configured with: folders and listening ports, from the CLI and environment.
import path from 'node:path';
import { DEFAULT_PLATFORM_ENDPOINTS, platformEndpointsFrom, type PlatformEndpoints } from './platform-endpoints.js';
import { defaultContentFolder as userContentFolder, defaultDataFolder } from './platform/data-folders.js';

export const DEFAULT_PORT = 44030;
export const DEFAULT_LEGACY_PORT = 5000;
export const LOOPBACK_HOST = '127.0.0.1';

export class ServiceOptions {
  constructor(
    /** Holds settings.json, logs, plugins and the default cache folder. */
    readonly dataFolder: string,
    readonly port: number,
    /** The legacy port that tells old frontends to reload; `undefined` disables it. */
    readonly legacyPort: number | undefined,
    /** Origins allowed to open the WebSocket besides the service's own (`--allowed-origin`, `KEYFRAME_ALLOWED_ORIGINS`); the only allow-list trusted. */
    readonly allowedOrigins: readonly string[] = [],
    readonly defaultContentFolder: string = userContentFolder(),
    /** The hosting platform's sign-in and upload endpoints (`KEYFRAME_ACCOUNT_TOKEN_URL`, `KEYFRAME_UPLOAD_URL`, …). */
    readonly platform: PlatformEndpoints = DEFAULT_PLATFORM_ENDPOINTS,
  ) {}

  get logFolder(): string {
    return path.join(this.dataFolder, 'logs');
  }
  get settingsFile(): string {
    return path.join(this.dataFolder, 'settings.json');
  }
  get defaultCacheFolder(): string {
    return path.join(this.dataFolder, 'cache');
  }

  static fromEnvironment(
    overrides: { dataFolder?: string; port?: number; legacyPort?: number | undefined; allowedOrigins?: readonly string[] } = {},
    variables: NodeJS.ProcessEnv = process.env,
  ): ServiceOptions {
    const dataFolder = path.resolve(overrides.dataFolder ?? (variables.KEYFRAME_HOME || defaultDataFolder()));
    const allowedOrigins = [...(variables.KEYFRAME_ALLOWED_ORIGINS ?? '').split(','), ...(overrides.allowedOrigins ?? [])]
      .map((origin) => origin.trim())
      .filter(Boolean);
    const legacyPort = 'legacyPort' in overrides ? overrides.legacyPort : DEFAULT_LEGACY_PORT;
    return new ServiceOptions(
      dataFolder,
      overrides.port ?? DEFAULT_PORT,
      legacyPort,
      allowedOrigins,
      userContentFolder(),
      platformEndpointsFrom(variables),
    );
  }
}
