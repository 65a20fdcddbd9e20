/**
 * Requests Node's HTTP parser refuses before Express sees them (headers over 16 kB, a control character in a header,
 * a malformed request line) are answered in the spec's envelope too, instead of Node's bare status line: 431
 * `request_headers_too_large` for headers too large, 400 `validation_failed` otherwise. Attach it to the HTTP server
 * (`server.on("clientError", answerClientError)`).
 */
import type { Duplex } from "node:stream";
import { ERROR_CATALOG, newId } from "@lm/domain";

/** Writes the envelope reply for a request the parser refused, and closes the connection. */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = err.code === "HPE_HEADER_OVERFLOW";
  const code = tooLarge ? "request_headers_too_large" : "validation_failed";
  const { status, type } = ERROR_CATALOG[code];
  const requestId = newId("request");
  const body = JSON.stringify({
    error: {
      type,
      code,
      message: tooLarge ? "Request headers are too large." : "The request is not valid HTTP.",
      request_id: requestId,
    },
  });
  socket.end(
    `HTTP/1.1 ${status} ${tooLarge ? "Request Header Fields Too Large" : "Bad Request"}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
}
