/**
 * JSON replies sent as the text itself. `res.json` hands a body of 1,000 characters or more to Node as a Buffer, a
 * copy of the text made on every reply; given as a string with its length, it is written with the headers in the same
 * corked socket write (a charge is about 1.7 KB, and its read and creation are the busiest routes).
 */
import type { Response } from "express";

/** Sends JSON `text` as is, with the headers `res.json` would set. */
export function sendJsonText(res: Response, status: number, text: string): void {
  res.status(status).setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(text));
  res.end(text);
}

/** Sends `body` as JSON, like `res.status(status).json(body)` with the application's default JSON settings. */
export function sendJson(res: Response, status: number, body: unknown): void {
  sendJsonText(res, status, JSON.stringify(body));
}
