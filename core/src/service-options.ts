// What a running service is configured with: folders and listening ports, from the CLI and environment.
import path from 'node:path';
import { WIRE_DIALECTS, type WireDialect } from './protocol/settings.js';
import { DEFAULT_PLATFORM_ENDPOINTS, platformEndpointsFrom, type PlatformEndpoints } from './platform-endpoints.js';
import { defaultContentFolder as userContentFolder, defaultDataFolder } from './platform/data-folders.js';

export const DEFAULT_PORT = 44030;
export const DEFAULT_LEGACY_PORT = 5000;
/** Where the reference frontend loads media from (protocol-gaps §10). */
export const DEFAULT_REFERENCE_MEDIA_PORT = 2222;
export const LOOPBACK_HOST = '127.0.0.1';
/** The names of this machine a Host or Origin may use. */
export const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'] as const;

export class ServiceOptions {
  constructor(
    /** Holds settings.json, logs, plugins and the default cache folder. */
    readonly dataFolder: string,
    readonly port: number,
    /** The legacy port that tells old frontends to reload; `undefined` disables it. */
    readonly legacyPort: number | undefined,
    /**
     * Origins allowed to open the WebSocket and read media besides the service's own (`--allowed-origin`,
     * `KEYFRAME_ALLOWED_ORIGINS`); the only allow-list trusted. A loopback origin may name a port range (`parseAllowedOrigin`).
     */
    readonly allowedOrigins: readonly string[] = [],
    readonly defaultContentFolder: string = userContentFolder(),
    /** The hosting platform's sign-in and upload endpoints (`KEYFRAME_ACCOUNT_TOKEN_URL`, `KEYFRAME_UPLOAD_URL`, …). */
    readonly platform: PlatformEndpoints = DEFAULT_PLATFORM_ENDPOINTS,
    /** The dialect of connections that do not ask for one (`--dialect`, `KEYFRAME_DIALECT`); undefined: the `wireDialect` setting. */
    readonly dialect: WireDialect | undefined = undefined,
    /**
     * Where the media routes are also served for reference-dialect frontends (`--reference-media-port`, default 2222 from
     * the command line); undefined: not at all.
     */
    readonly referenceMediaPort?: number,
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
    overrides: {
      dataFolder?: string;
      port?: number;
      legacyPort?: number | undefined;
      allowedOrigins?: readonly string[];
      dialect?: string;
      referenceMediaPort?: string;
    } = {},
    variables: NodeJS.ProcessEnv = process.env,
  ): ServiceOptions {
    const dataFolder = path.resolve(overrides.dataFolder ?? (variables.KEYFRAME_HOME || defaultDataFolder()));
    const allowedOrigins = [...(variables.KEYFRAME_ALLOWED_ORIGINS ?? '').split(','), ...(overrides.allowedOrigins ?? [])]
      .map((origin) => origin.trim())
      .filter(Boolean);
    allowedOrigins.forEach(parseAllowedOrigin); // a mistyped one stops the service with the reason
    const legacyPort = 'legacyPort' in overrides ? overrides.legacyPort : DEFAULT_LEGACY_PORT;
    return new ServiceOptions(
      dataFolder,
      overrides.port ?? DEFAULT_PORT,
      legacyPort,
      allowedOrigins,
      userContentFolder(),
      platformEndpointsFrom(variables),
      parseDialect(overrides.dialect ?? (variables.KEYFRAME_DIALECT || undefined)),
      parseOptionalPort(overrides.referenceMediaPort ?? (variables.KEYFRAME_REFERENCE_MEDIA_PORT || undefined), '--reference-media-port'),
    );
  }
}

/** A port number from the command line or the environment; a mistyped one stops the service with the reason. */
export function parsePort(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  const port = Number(text);
  if (text.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`${name} must be a port number from 0 to 65535, not ${JSON.stringify(text)}`);
  return port;
}

/** An allowed origin: exactly one (`https://tools.example`), or every port of a range on a loopback host. */
export interface AllowedOrigin {
  /** Lower case, without a trailing slash; for a range, `scheme://host:` without the ports. */
  readonly origin: string;
  readonly ports?: { readonly first: number; readonly last: number };
}

/**
 * `scheme://host[:port]`, or `scheme://<loopback name>:<first>-<last>` for a desktop host that serves its page from
 * any free port of a range (the reference one uses `http://localhost:44040-44139`). A range on any other host is
 * refused: it would let in every page that host serves, not one program on this machine.
 */
export function parseAllowedOrigin(text: string): AllowedOrigin {
  const origin = text.trim().toLowerCase().replace(/\/$/, '');
  const range = /^(https?:\/\/)([^/]+):(\d+)-(\d+)$/.exec(origin);
  if (!range) return { origin };
  const [, scheme = '', host = '', first = '', last = ''] = range;
  const ports = { first: Number(first), last: Number(last) };
  if (!(LOOPBACK_NAMES as readonly string[]).includes(host))
    throw new Error(
      `--allowed-origin ${text}: a port range is only allowed on this machine (${LOOPBACK_NAMES.join(', ')}), not on ${host}`,
    );
  if (ports.first < 1 || ports.last > 65535 || ports.first > ports.last)
    throw new Error(`--allowed-origin ${text}: the port range must go up, from 1 to 65535`);
  return { origin: `${scheme}${host}:`, ports };
}

/** `off` turns the listener off; absent keeps the default. */
function parseOptionalPort(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return DEFAULT_REFERENCE_MEDIA_PORT;
  return text === 'off' ? undefined : parsePort(text, name);
}

function parseDialect(text: string | undefined): WireDialect | undefined {
  if (text === undefined) return undefined;
  if ((WIRE_DIALECTS as readonly string[]).includes(text)) return text as WireDialect;
  throw new Error(`--dialect must be one of ${WIRE_DIALECTS.join(', ')}, not ${JSON.stringify(text)}`);
}
