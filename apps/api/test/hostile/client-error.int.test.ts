/**
 * Requests that Node's HTTP parser refuses (headers too large, a NUL in a header) are answered in the envelope, as
 * the API process wires it (`server.on("clientError", answerClientError)`).
 */
import { createServer, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { answerClientError } from "../../src/http/client-error";
import { useApiTestContext } from "../support/harness";

/** Sends `raw` bytes to the server and returns everything it answers. */
function exchange(port: number, raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(raw));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("end", () => resolve(Buffer.concat(chunks).toString("latin1")));
    socket.on("error", reject);
  });
}

describe("requests refused by the HTTP parser", () => {
  const ctx = useApiTestContext();
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer(ctx.app).on("clientError", answerClientError);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const envelopeOf = (reply: string) => JSON.parse(reply.slice(reply.indexOf("\r\n\r\n") + 4)).error;

  test("when the headers exceed Node's limit, then 431 in the envelope", async () => {
    const reply = await exchange(port, `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);

    expect(reply).toMatch(/^HTTP\/1\.1 431 /);
    expect(envelopeOf(reply)).toMatchObject({
      type: "invalid_request_error",
      code: "request_headers_too_large",
      request_id: expect.stringMatching(/^req_/),
    });
  });

  test("when a header holds a NUL byte, then 400 in the envelope and the app never sees it", async () => {
    const reply = await exchange(port, "GET /health HTTP/1.1\r\nHost: x\r\nUser-Agent: a\u0000b\r\n\r\n");

    expect(reply).toMatch(/^HTTP\/1\.1 400 /);
    expect(envelopeOf(reply)).toMatchObject({ code: "validation_failed" });
  });
});
