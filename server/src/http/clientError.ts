// Requests Node's HTTP parser refuses before Express sees them (a request line or headers over
// 16 KB, malformed HTTP): answered in the spec's error envelope instead of Node's bare status line.
import type { Socket } from 'node:net';

const MESSAGES: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'The request line or headers are too large'],
  HPE_URI_TOO_LONG: [414, 'The address is too long'],
};

export function onClientError(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, message] = MESSAGES[err.code ?? ''] ?? [400, 'The request is not valid HTTP'];
  const body = JSON.stringify({ success: false, error: message });
  const reason = status === 431 ? 'Request Header Fields Too Large' : status === 414 ? 'URI Too Long' : 'Bad Request';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
