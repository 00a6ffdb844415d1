import { ConnectionClient } from './connection-client';
import { socketUrl } from './socket-url';

/** The application's single connection to the backend. */
export const connection = new ConnectionClient(socketUrl(window.location));
