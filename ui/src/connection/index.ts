export { connection } from './connection';
export type { ConnectionStatus } from './connection-client';
export { useConnectionStatus, useEventQueue, useServerEvent } from './hooks';
export { onServerEvents, SERVER_EVENT, type ServerEvent, type ServerEventHandlers } from './server-event';
export { BUILT_VERSION, useReloadOnNewVersion } from './app-version';
