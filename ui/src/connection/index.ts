export { connection } from './connection';
export type { ConnectionStatus } from './connection-client';
export { useConnectionStatus, useEventQueue, useServerEvent } from './hooks';
export { SERVER_EVENT, type ServerEvent } from './server-event';
export { BUILT_VERSION, useReloadOnNewVersion } from './app-version';
