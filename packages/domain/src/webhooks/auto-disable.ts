/**
 * Automatic disabling of dead webhook endpoints (SPEC "Webhook endpoint" states and "Limits", DESIGN §4
 * "Auto-disable").
 */

/** Consecutive `dead` chains that disable an endpoint (SPEC "Limits"). */
export const AUTO_DISABLE_DEAD_CHAINS = 50;

/** Window in which one success keeps an endpoint enabled whatever its dead chains (SPEC "Limits": 7 days). */
export const AUTO_DISABLE_SUCCESS_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Whether an endpoint must be disabled after a chain of it ended `dead`: it is enabled, at least 50 chains in a row
 * ended `dead` (counting the one that just did), and it had no successful delivery in the last 7 days.
 * @param endpoint.consecutiveDeadChains - the counter after counting the chain that just died
 * @param endpoint.lastSucceededAt - last successful delivery, null when it never had one
 */
export function shouldAutoDisableEndpoint(
  endpoint: { enabled: boolean; consecutiveDeadChains: number; lastSucceededAt: Date | null },
  now: Date,
): boolean {
  if (!endpoint.enabled || endpoint.consecutiveDeadChains < AUTO_DISABLE_DEAD_CHAINS) return false;
  const succeededRecently =
    endpoint.lastSucceededAt !== null &&
    now.getTime() - endpoint.lastSucceededAt.getTime() < AUTO_DISABLE_SUCCESS_WINDOW_MS;
  return !succeededRecently;
}
