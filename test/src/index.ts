// @keyframe/test: the test kit for Keyframe and its game integrations.
export { ProtocolClient, type CloseInfo, type ConnectOptions, type ReceivedEvent } from './kit/protocol-client.js';
export { ServiceProcess, type ServiceProcessOptions } from './kit/service-process.js';
export { serviceUnderTest, ServiceUnderTest } from './kit/service-under-test.js';
export { createTempFolder, type TempFolder } from './kit/temp-folder.js';
export { assertTapeMatchesExpected, compareBookmarks, expectedFileOf, replayTape, type ExpectedBookmarks, type ReplayOptions } from './kit/tape-assertions.js';
