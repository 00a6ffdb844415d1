// Live feed sources: the game's own HTTP pushes, local endpoints and sockets, log files and folders.
export { LiveFeeds, type LiveFeedsOptions } from './live-feeds.js';
export { InputQueue, type InputHandler, type InputQueueOptions } from './input-queue.js';
export { HttpPushListener } from './http-push-listener.js';
export { dataFolderPushToken, PUSH_TOKEN_FILE_NAME, PushTokenStore, pushTokenFile } from './push-token.js';
export { LocalPoller } from './local-poller.js';
export { TcpClient } from './tcp-client.js';
export { WebSocketClient } from './websocket-client.js';
export { UdpListener } from './udp-listener.js';
export { FileTail } from './file-tail.js';
export { FolderWatcher } from './folder-watcher.js';
export { LineSplitter } from './line-splitter.js';
export type { LiveFeed, LiveSource, SourceContext } from './types.js';
export { ScreenTextSource, type ScreenTextSupport } from '../screen-text/screen-text-source.js';
