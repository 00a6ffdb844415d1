// A WebSocket client on a bare TCP socket, with the handshake and framing written out by hand: it can
// do what a browser or the ws package never would (stop reading, send a frame that breaks the rules).
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

export interface ServerFrame {
  opcode: number;
  payload: Buffer;
}

export const OPCODE_TEXT = 0x1;
export const OPCODE_CLOSE = 0x8;

/** Connects to the service at `url` (`http://127.0.0.1:<port>/`) and completes the upgrade; the socket is paused. */
export async function openRawWebSocket(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.write(
    [
      'GET / HTTP/1.1',
      `Host: ${hostname}:${port}`,
      'Upgrade: websocket',
      'Connection: Upgrade',
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
      'Sec-WebSocket-Version: 13',
      '',
      '',
    ].join('\r\n'),
  );
  let answer = Buffer.alloc(0);
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      answer = Buffer.concat([answer, chunk]);
      const end = answer.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.off('data', onData);
      socket.pause();
      const status = answer.subarray(0, answer.indexOf('\r\n')).toString();
      if (!status.includes(' 101 ')) return reject(new Error(`upgrade refused: ${status}`));
      // Anything after the headers is the start of the first frame; put it back for whoever reads next.
      if (answer.length > end + 4) socket.unshift(answer.subarray(end + 4));
      resolve();
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });
  return socket;
}

/** A client frame: masked, as the protocol requires of clients, unless `masked` is false (which the server must refuse). */
export function clientFrame(text: string, { masked = true } = {}): Buffer {
  const payload = Buffer.from(text);
  const length = payload.length;
  const header =
    length < 126
      ? Buffer.from([0x80 | OPCODE_TEXT, length])
      : length < 65536
        ? Buffer.from([0x80 | OPCODE_TEXT, 126, length >> 8, length & 0xff])
        : Buffer.concat([Buffer.from([0x80 | OPCODE_TEXT, 127]), bigEndian64(length)]);
  if (!masked) return Buffer.concat([header, payload]);
  header[1] = header[1]! | 0x80;
  const mask = randomBytes(4);
  const body = Buffer.from(payload.map((byte, index) => byte ^ mask[index % 4]!));
  return Buffer.concat([header, mask, body]);
}

/** Splits what the server sent into frames (server frames are never masked); a cut-off last frame is left out. */
export function serverFrames(bytes: Buffer): ServerFrame[] {
  const frames: ServerFrame[] = [];
  let offset = 0;
  while (offset + 2 <= bytes.length) {
    const opcode = bytes[offset]! & 0x0f;
    let length = bytes[offset + 1]! & 0x7f;
    let start = offset + 2;
    if (start + (length === 126 ? 2 : length === 127 ? 8 : 0) > bytes.length) break;
    if (length === 126) {
      length = bytes.readUInt16BE(start);
      start += 2;
    } else if (length === 127) {
      length = Number(bytes.readBigUInt64BE(start));
      start += 8;
    }
    if (start + length > bytes.length) break;
    frames.push({ opcode, payload: bytes.subarray(start, start + length) });
    offset = start + length;
  }
  return frames;
}

function bigEndian64(value: number): Buffer {
  const buffer = Buffer.alloc(8);
  buffer.writeBigUInt64BE(BigInt(value));
  return buffer;
}
