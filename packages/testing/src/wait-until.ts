/**
 * Polling for a condition with a generous deadline, instead of sleeping fixed times (the test machine is shared and
 * slow at moments).
 */

/**
 * Calls `probe` every `intervalMs` until it returns something other than `undefined`, `null` or `false`, and returns
 * that value.
 * @throws Error naming `what` after `timeoutMs` (default 20 000)
 */
export async function waitUntil<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 50));
  }
}
