/**
 * Log capture for tests that check what reaches the logs: a winston transport that keeps every line in memory.
 */
import Transport from "winston-transport";
import type { Logger } from "@lm/logging";

/** Keeps each log line, as the JSON it would have been written as. */
export class MemoryTransport extends Transport {
  readonly lines: Array<Record<string, unknown>> = [];
  override log(info: Record<string, unknown>, next: () => void): void {
    this.lines.push(JSON.parse(JSON.stringify(info)));
    next();
  }
}

/**
 * From now on, sends `logger`'s lines from `info` up to memory only (its child loggers follow it).
 * @returns the transport that holds them
 */
export function captureLogs(logger: Logger): MemoryTransport {
  const memory = new MemoryTransport();
  logger.clear().add(memory);
  logger.level = "info";
  logger.silent = false;
  return memory;
}
