/**
 * The destination check of webhook URLs (SPEC "Destination check", DESIGN §4 "Attempt" and "Local destinations"):
 * at registration (endpoint url, charge `postback_url`) and again before every delivery, so that a webhook can never
 * be pointed at the service's own network (SSRF).
 *
 * The check is split so the delivery engine can pin the resolved address: {@link checkDestinationUrl} holds the
 * rules that need no network, {@link isBlockedAddress} judges one address, and {@link checkDestination} combines them
 * with a name resolution for registration-time callers.
 */
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { LRUCache } from "lru-cache";

/** Options of the destination check. */
export interface DestinationOptions {
  /**
   * `config.webhookAllowLocalDestinations`: also admits `http`, any port, `localhost` and loopback addresses
   * (no other private range). Development and tests only; refused in production by the configuration.
   */
  allowLocal: boolean;
  /** Resolves a host name to its addresses; defaults to {@link resolveHostname}. Tests inject their own. */
  resolve?: HostResolver;
}

/** Resolves a host name to every address it has (IPv4 and IPv6, textual form). Rejects when it has none. */
export type HostResolver = (hostname: string) => Promise<string[]>;

/**
 * Outcome of a check: the parsed URL, `href` (its WHATWG serialisation: the URL that was judged, which is the one to
 * store; `https://a.example\\@127.0.0.1/x` is judged, and must be stored, as `https://a.example/@127.0.0.1/x`) and
 * the addresses it resolved to; or a reason fit to show the caller.
 */
export type DestinationCheck =
  { ok: true; url: URL; href: string; addresses: string[] } | { ok: false; reason: string };

/**
 * Outcome of the network-free rules: the parsed URL, plus `literalAddress` when the host is an IP literal that the
 * rules admit (only loopback, only with `allowLocal`), since such a host is never resolved.
 */
export type DestinationUrlCheck = { ok: true; url: URL; literalAddress?: string } | { ok: false; reason: string };

/** Longest URL accepted; longer ones are refused before parsing. */
export const MAX_DESTINATION_URL_LENGTH = 2048;

/** RFC 4291 global unicast space; an IPv6 address outside it is not a public destination whatever its range name. */
const IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR("2000::/3");
/** RFC 6052 well-known NAT64 prefix: the last 32 bits are an IPv4 address, judged as such. */
const NAT64_WELL_KNOWN = ipaddr.parseCIDR("64:ff9b::/96");

/**
 * Whether `address` must not receive a webhook: everything that is not public unicast (ipaddr.js range `unicast`),
 * with IPv4-mapped (`::ffff:a.b.c.d`) and NAT64 (`64:ff9b::a.b.c.d`) addresses judged by their embedded IPv4, and
 * IPv6 outside 2000::/3 blocked. 6to4 and Teredo have their own ranges and are therefore blocked. With `allowLocal`,
 * loopback is admitted too. A string that is not an IP address is blocked.
 */
export function isBlockedAddress(address: string, allowLocal: boolean): boolean {
  if (!ipaddr.isValid(address)) return true;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6") {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.zoneId !== undefined) return true;
    if (v6.isIPv4MappedAddress()) return isBlockedAddress(v6.toIPv4Address().toString(), allowLocal);
    if (v6.match(NAT64_WELL_KNOWN)) return isBlockedAddress(embeddedIpv4(v6), allowLocal);
    const range = v6.range();
    if (range === "loopback") return !allowLocal;
    return range !== "unicast" || !v6.match(IPV6_GLOBAL_UNICAST);
  }
  const range = (parsed as ipaddr.IPv4).range();
  if (range === "loopback") return !allowLocal;
  return range !== "unicast";
}

/** The IPv4 address in the last 32 bits of an IPv6 address. */
function embeddedIpv4(address: ipaddr.IPv6): string {
  const bytes = address.toByteArray().slice(12);
  return ipaddr.fromByteArray(bytes).toString();
}

/** Whether `hostname` (lower case, as WHATWG URL gives it) names this machine: `localhost` or `*.localhost`. */
export function isLocalhostName(hostname: string): boolean {
  const name = hostname.replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost");
}

/**
 * Appended to a refusal that `WEBHOOK_ALLOW_LOCAL_DESTINATIONS` would have admitted (plain `http`, another port,
 * `localhost`, a loopback address): a developer pointing a webhook at their own machine learns the setting exists.
 */
export const LOCAL_DESTINATIONS_HINT =
  " (for local testing, start the server with WEBHOOK_ALLOW_LOCAL_DESTINATIONS=true; it is refused in production)";

/**
 * The rules that need no network (SPEC "Destination check" 1–3): an absolute `https` URL on port 443 (no explicit
 * port, or `:443`), no userinfo, a host that is a fully qualified name, never an IP literal and never `localhost`.
 * IPv4 written in decimal, hex or octal is recognised because WHATWG URL parsing normalises it to dotted form first.
 * With `allowLocal`: `http` and any port too, `localhost` names, and loopback IP literals. Without it, a URL that
 * `allowLocal` would admit is refused with {@link LOCAL_DESTINATIONS_HINT} after the reason.
 */
export function checkDestinationUrl(raw: string, allowLocal: boolean): DestinationUrlCheck {
  const check = urlRules(raw, allowLocal);
  if (check.ok || allowLocal || !urlRules(raw, true).ok) return check;
  return { ok: false, reason: `${check.reason}${LOCAL_DESTINATIONS_HINT}` };
}

/** The rules of {@link checkDestinationUrl}, without the hint. */
function urlRules(raw: string, allowLocal: boolean): DestinationUrlCheck {
  if (raw.length > MAX_DESTINATION_URL_LENGTH) {
    return { ok: false, reason: `url must be at most ${MAX_DESTINATION_URL_LENGTH} characters` };
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "url must be an absolute URL" };
  }
  const schemes = allowLocal ? ["https:", "http:"] : ["https:"];
  if (!schemes.includes(url.protocol)) return { ok: false, reason: "url must use https" };
  if (url.username !== "" || url.password !== "") return { ok: false, reason: "url must not contain credentials" };
  // WHATWG URL drops the scheme's default port, so an empty port means 443 for https.
  if (!allowLocal && url.port !== "") return { ok: false, reason: "url must use port 443" };

  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  if (isIP(host) !== 0) {
    // Blocked without allowLocal but admitted with it: a loopback literal, the one kind allowLocal lets through.
    if (allowLocal && isBlockedAddress(host, false) && !isBlockedAddress(host, true)) {
      return { ok: true, url, literalAddress: host };
    }
    return { ok: false, reason: "url host must be a domain name, not an IP address" };
  }
  if (isLocalhostName(host)) {
    return allowLocal ? { ok: true, url } : { ok: false, reason: "url host must not be localhost" };
  }
  if (!host.replace(/\.$/, "").includes("."))
    return { ok: false, reason: "url host must be a fully qualified domain name" };
  return { ok: true, url };
}

/** How long {@link resolveHostname} reuses a name's addresses, ms (the JVM's default for a positive answer). */
export const RESOLVED_HOST_TTL_MS = 30_000;
/** Most names {@link resolveHostname} remembers at once; the least recently used go first. */
const RESOLVED_HOSTS_MAX = 10_000;

/**
 * `resolve` with its answers kept for `ttlMs` per name (lru-cache), and concurrent look-ups of one name sharing one
 * resolution. A failure is not kept: the next call asks again, so a seller who fixes their DNS can retry at once.
 * An answer is only a list of addresses: callers judge every address of it on every use (the destination check, and
 * the worker's socket look-up, which connects only to addresses it judged), so a kept answer can never let a blocked
 * address through; it can only keep sending to the old public address of a moved name for up to `ttlMs`.
 * @param options.ttlMs - how long an answer is reused (default {@link RESOLVED_HOST_TTL_MS})
 */
export function cachedResolver(resolve: HostResolver, options: { ttlMs?: number } = {}): HostResolver {
  const answers = new LRUCache<string, readonly string[]>({
    max: RESOLVED_HOSTS_MAX,
    ttl: options.ttlMs ?? RESOLVED_HOST_TTL_MS,
    fetchMethod: async (hostname) => Object.freeze(await resolve(hostname)),
  });
  return async (hostname) => [...((await answers.fetch(hostname)) ?? [])];
}

/**
 * Resolves every address of `hostname` with the system resolver (what a socket would connect to: /etc/hosts, then
 * DNS), in the resolver's order, reusing an answer for {@link RESOLVED_HOST_TTL_MS} (see {@link cachedResolver}):
 * charge creation checks its `postback_url` on every request, and the system resolver gives no record TTL.
 * @throws the resolver's error (e.g. `ENOTFOUND`) when the name does not resolve
 */
export const resolveHostname: HostResolver = cachedResolver(async (hostname) => {
  const results = await lookup(hostname, { all: true, verbatim: true });
  return results.map((r) => r.address);
});

/**
 * The whole destination check (SPEC "Destination check"): the URL rules, then the host resolved and EVERY address
 * judged by {@link isBlockedAddress}, so a name with one private address among public ones is refused.
 * Never throws: a name that does not resolve is `{ok: false}`. Callers store `href`, never the input as typed, so that
 * every later reader parses exactly what was approved.
 */
export async function checkDestination(raw: string, options: DestinationOptions): Promise<DestinationCheck> {
  const rules = checkDestinationUrl(raw, options.allowLocal);
  if (!rules.ok) return rules;
  const href = rules.url.href;
  if (rules.literalAddress !== undefined) return { ok: true, url: rules.url, href, addresses: [rules.literalAddress] };

  const hostname = rules.url.hostname;
  let addresses: string[];
  try {
    addresses = await (options.resolve ?? resolveHostname)(hostname);
  } catch {
    return { ok: false, reason: "url host does not resolve" };
  }
  if (addresses.length === 0) return { ok: false, reason: "url host does not resolve" };
  if (addresses.some((address) => isBlockedAddress(address, options.allowLocal))) {
    // A name of this machine only (lvh.me, a hosts-file alias): allowLocal would admit it.
    const local = !options.allowLocal && addresses.every((address) => !isBlockedAddress(address, true));
    const reason = "url host resolves to a private or reserved address";
    return { ok: false, reason: local ? `${reason}${LOCAL_DESTINATIONS_HINT}` : reason };
  }
  return { ok: true, url: rules.url, href, addresses };
}
