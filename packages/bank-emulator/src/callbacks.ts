/**
 * The bank's callbacks: `POST <url>` with a JSON body over plain HTTP or HTTPS as the URL says, unsigned (the
 * standard signs nothing). Every attempt is recorded with the status received or the reason it failed.
 */
import http from "node:http";
import https from "node:https";
import type { Logger } from "@lm/logging";

/** One callback the bank tried to post. */
export interface CallbackAttempt {
  url: string;
  body: unknown;
  /** The status the receiver answered, or null when the post failed. */
  status: number | null;
  /** Why the post failed (connection refused, timeout), when it did. */
  error?: string;
}

/** Posts callbacks, records them, and cuts the ones in flight on close. */
export class CallbackPoster {
  private readonly attempts: CallbackAttempt[] = [];
  private readonly inFlight = new Set<http.ClientRequest>();

  constructor(
    private readonly logger: Logger,
    private readonly timeoutMs: number,
  ) {}

  /**
   * Posts `body` as JSON to `url` and resolves with the status the receiver answered (its body is read and
   * dropped); a fresh connection each time, so nothing outlives the emulator.
   * @throws Error when the receiver cannot be reached or does not answer within the timeout
   */
  post(url: string, body: unknown): Promise<number> {
    const attempt: CallbackAttempt = { url, body, status: null };
    this.attempts.push(attempt);
    const payload = Buffer.from(JSON.stringify(body));
    const target = new URL(url);
    const client = target.protocol === "https:" ? https : http;
    return new Promise<number>((resolve, reject) => {
      const request = client.request(
        target,
        {
          method: "POST",
          agent: false,
          timeout: this.timeoutMs,
          headers: { "content-type": "application/json", "content-length": payload.length },
        },
        (response) => {
          response.resume();
          response.on("end", () => {
            attempt.status = response.statusCode ?? null;
            resolve(response.statusCode ?? 0);
          });
          response.on("error", reject);
        },
      );
      this.inFlight.add(request);
      request.on("close", () => this.inFlight.delete(request));
      request.on("timeout", () => request.destroy(new Error(`no answer within ${this.timeoutMs} ms`)));
      request.on("error", (err) => {
        attempt.error = err.message;
        reject(err);
      });
      request.end(payload);
    });
  }

  /** {@link post}, with a failure logged on the emulator's log and swallowed, as a bank's callback would be. */
  async notify(url: string, body: unknown): Promise<void> {
    try {
      await this.post(url, body);
    } catch (err) {
      this.logger.warn("callback not delivered", { url, reason: (err as Error).message });
    }
  }

  /** Every callback attempted, in order. */
  sent(): CallbackAttempt[] {
    return [...this.attempts];
  }

  /** Cuts the posts still in flight. */
  close(): void {
    for (const request of this.inFlight) request.destroy(new Error("the bank emulator closed"));
  }
}
