import {
  cachedResolver,
  checkDestination,
  checkDestinationUrl,
  LOCAL_DESTINATIONS_HINT,
  isBlockedAddress,
  resolveHostname,
  type HostResolver,
} from "../../src";

/** DNS as the tests want it; an unknown name fails like the system resolver does. */
const records: Record<string, string[]> = {
  "hooks.example.com": ["93.184.215.14"],
  "hooks.example.com.": ["93.184.215.14"],
  "v6.example.com": ["2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
  "both.example.com": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
  "xn--bcher-kva.example": ["93.184.215.14"],
  "private.example.com": ["10.1.2.3"],
  "mixed.example.com": ["93.184.215.14", "192.168.1.10"],
  "mixed6.example.com": ["2606:2800:21f:cb07:6820:80da:af6b:8b2c", "fd00::1"],
  "metadata.example.com": ["169.254.169.254"],
  "aws6.example.com": ["fd00:ec2::254"],
  "loop.example.com": ["127.0.0.1"],
  "mapped.example.com": ["::ffff:10.0.0.1"],
  "mappedpublic.example.com": ["::ffff:93.184.215.14"],
  "nat64.example.com": ["64:ff9b::a00:1"],
  "nat64public.example.com": ["64:ff9b::5db8:d70e"],
  "cgnat.example.com": ["100.64.0.1"],
  "zero.example.com": ["0.0.0.0"],
  "empty.example.com": [],
  localhost: ["127.0.0.1", "::1"],
  "localhost.": ["127.0.0.1"],
  "app.localhost": ["127.0.0.1"],
};
const resolve: HostResolver = async (hostname) => {
  const addresses = records[hostname];
  if (addresses === undefined)
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
  return addresses;
};

type Row = [url: string, strict: boolean, local: boolean];

/** url → [admitted without allowLocal, admitted with allowLocal]. */
const table: Row[] = [
  // Plain public destinations.
  ["https://hooks.example.com/webhooks", true, true],
  ["https://hooks.example.com:443/webhooks", true, true],
  ["https://HOOKS.Example.COM/path?q=1#frag", true, true],
  ["https://v6.example.com/", true, true],
  ["https://both.example.com/", true, true],
  ["https://hooks.example.com./", true, true],
  ["https://bücher.example/", true, true],
  ["https://mappedpublic.example.com/", true, true],
  ["https://nat64public.example.com/", true, true],
  // Scheme and port.
  ["http://hooks.example.com/", false, true],
  ["ftp://hooks.example.com/", false, false],
  ["file:///etc/passwd", false, false],
  ["gopher://hooks.example.com/", false, false],
  ["javascript:alert(1)", false, false],
  ["data:text/plain,hi", false, false],
  ["ws://hooks.example.com/", false, false],
  ["https://hooks.example.com:8443/", false, true],
  ["https://hooks.example.com:80/", false, true],
  ["https://hooks.example.com:0/", false, true],
  ["not a url", false, false],
  ["/relative/path", false, false],
  ["", false, false],
  // Userinfo tricks.
  ["https://good.com@10.0.0.1/", false, false],
  ["https://user:pass@hooks.example.com/", false, false],
  ["https://user@hooks.example.com/", false, false],
  ["https://:secret@hooks.example.com/", false, false],
  ["https://hooks.example.com%40127.0.0.1/", false, false],
  // Literal IPs, in every spelling WHATWG URL normalises.
  ["https://93.184.215.14/", false, false],
  ["https://127.0.0.1/", false, true],
  ["https://2130706433/", false, true],
  ["https://0x7f000001/", false, true],
  ["https://0177.0.0.1/", false, true],
  ["https://0x7f.1/", false, true],
  ["https://127.1/", false, true],
  ["https://167772161/", false, false],
  ["https://0xa9.0xfe.0xa9.0xfe/", false, false],
  ["https://169.254.169.254/latest/meta-data/", false, false],
  ["https://10.0.0.1/", false, false],
  ["https://172.16.5.4/", false, false],
  ["https://192.168.0.1/", false, false],
  ["https://100.64.1.1/", false, false],
  ["https://0.0.0.0/", false, false],
  ["https://255.255.255.255/", false, false],
  ["https://224.0.0.1/", false, false],
  ["https://[::1]/", false, true],
  ["https://[::]/", false, false],
  ["https://[::ffff:127.0.0.1]/", false, true],
  ["https://[::ffff:10.0.0.1]/", false, false],
  ["https://[64:ff9b::a9fe:a9fe]/", false, false],
  ["https://[fd00:ec2::254]/", false, false],
  ["https://[fe80::1]/", false, false],
  ["https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/", false, false],
  // localhost names.
  ["https://localhost/", false, true],
  ["https://LOCALHOST./", false, true],
  ["http://localhost:3000/hook", false, true],
  ["https://app.localhost/", false, true],
  // Names and what they resolve to.
  ["https://intranet/", false, false],
  ["https://private.example.com/", false, false],
  ["https://mixed.example.com/", false, false],
  ["https://mixed6.example.com/", false, false],
  ["https://metadata.example.com/", false, false],
  ["https://aws6.example.com/", false, false],
  ["https://loop.example.com/", false, true],
  ["https://mapped.example.com/", false, false],
  ["https://nat64.example.com/", false, false],
  ["https://cgnat.example.com/", false, false],
  ["https://zero.example.com/", false, false],
  ["https://empty.example.com/", false, false],
  ["https://unknown.example.com/", false, false],
  [`https://hooks.example.com/${"a".repeat(2100)}`, false, false],
];

describe("checkDestination", () => {
  test("the table has at least 50 URLs", () => {
    expect(table.length).toBeGreaterThanOrEqual(50);
  });

  test.each(table)(
    "when the url is %s, then it is admitted: %s (strict), %s (allowLocal)",
    async (url, strict, local) => {
      const withoutLocal = await checkDestination(url, { allowLocal: false, resolve });
      const withLocal = await checkDestination(url, { allowLocal: true, resolve });

      expect(withoutLocal.ok).toBe(strict);
      expect(withLocal.ok).toBe(local);
      if (!withoutLocal.ok) expect(withoutLocal.reason).toMatch(/^url /);
    },
  );

  test("when a name resolves, then the result carries the parsed url and every address", async () => {
    const result = await checkDestination("https://both.example.com/x", { allowLocal: false, resolve });

    expect(result).toEqual({
      ok: true,
      url: new URL("https://both.example.com/x"),
      href: "https://both.example.com/x",
      addresses: ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
    });
  });

  test.each([
    ["https://both.example.com\\@127.0.0.1/x", "https://both.example.com/@127.0.0.1/x"],
    ["HTTPS://Both.Example.COM:443/a/../x?q=1#f", "https://both.example.com/x?q=1#f"],
    ["https://both.example.com", "https://both.example.com/"],
  ])(
    "when %s is admitted, then href is the normalised URL that was judged (%s), the one to store",
    async (typed, href) => {
      const result = await checkDestination(typed, { allowLocal: false, resolve });

      expect(result).toMatchObject({ ok: true, href });
    },
  );

  test("when the host is an IP literal, then the resolver is never asked", async () => {
    const asked: string[] = [];
    const spy: HostResolver = async (hostname) => {
      asked.push(hostname);
      return ["93.184.215.14"];
    };

    const result = await checkDestination("http://127.0.0.1:8080/", { allowLocal: true, resolve: spy });

    expect(result).toMatchObject({ ok: true, addresses: ["127.0.0.1"] });
    expect(asked).toEqual([]);
  });

  test("when the URL rules fail, then the reason says which rule, and names WEBHOOK_ALLOW_LOCAL_DESTINATIONS when that would admit it", () => {
    expect(checkDestinationUrl("ftp://hooks.example.com/", false)).toEqual({
      ok: false,
      reason: "url must use https",
    });
    expect(checkDestinationUrl("http://hooks.example.com/", false)).toEqual({
      ok: false,
      reason: `url must use https${LOCAL_DESTINATIONS_HINT}`,
    });
    expect(checkDestinationUrl("https://a@hooks.example.com/", false)).toEqual({
      ok: false,
      reason: "url must not contain credentials",
    });
    expect(checkDestinationUrl("https://hooks.example.com:8443/", false)).toEqual({
      ok: false,
      reason: `url must use port 443${LOCAL_DESTINATIONS_HINT}`,
    });
    expect(checkDestinationUrl("https://localhost/", false)).toEqual({
      ok: false,
      reason: `url host must not be localhost${LOCAL_DESTINATIONS_HINT}`,
    });
    expect(checkDestinationUrl("https://10.0.0.8/", false)).toEqual({
      ok: false,
      reason: "url host must be a domain name, not an IP address",
    });
    expect(LOCAL_DESTINATIONS_HINT).toContain("WEBHOOK_ALLOW_LOCAL_DESTINATIONS=true");
  });
});

describe("the hint of a destination on this machine", () => {
  test("when a name resolves only to loopback and local destinations are off, then the refusal names WEBHOOK_ALLOW_LOCAL_DESTINATIONS; a private one does not", async () => {
    const loop = await checkDestination("https://loop.example.com/", { allowLocal: false, resolve });
    const mixed = await checkDestination("https://mixed.example.com/", { allowLocal: false, resolve });

    expect(loop).toEqual({
      ok: false,
      reason: `url host resolves to a private or reserved address${LOCAL_DESTINATIONS_HINT}`,
    });
    expect(mixed).toEqual({ ok: false, reason: "url host resolves to a private or reserved address" });
  });
});

describe("isBlockedAddress", () => {
  test.each([
    ["93.184.215.14", false, false],
    ["8.8.8.8", false, false],
    ["2606:4700:4700::1111", false, false],
    ["::ffff:8.8.8.8", false, false],
    ["64:ff9b::808:808", false, false],
    ["127.0.0.1", true, false],
    ["127.255.0.9", true, false],
    ["::1", true, false],
    ["::ffff:127.0.0.1", true, false],
    ["10.0.0.1", true, true],
    ["172.31.255.255", true, true],
    ["192.168.1.1", true, true],
    ["169.254.169.254", true, true],
    ["100.64.0.1", true, true],
    ["100.127.255.255", true, true],
    ["0.0.0.0", true, true],
    ["255.255.255.255", true, true],
    ["224.0.0.251", true, true],
    ["192.0.2.1", true, true],
    ["198.18.0.1", true, true],
    ["240.0.0.1", true, true],
    ["::", true, true],
    ["fe80::1", true, true],
    ["fe80::1%eth0", true, true],
    ["fc00::1", true, true],
    ["fd00:ec2::254", true, true],
    ["ff02::1", true, true],
    ["::ffff:169.254.169.254", true, true],
    ["::ffff:0:10.0.0.1", true, true],
    ["64:ff9b::a9fe:a9fe", true, true],
    ["64:ff9b:1::1", true, true],
    ["2002:0a00:0001::1", true, true],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", true, true],
    ["2001:db8::1", true, true],
    ["::10.0.0.1", true, true],
    ["4000::1", true, true],
    ["not-an-ip", true, true],
  ])("when the address is %s, then blocked is %s (strict) and %s (allowLocal)", (address, strict, local) => {
    expect(isBlockedAddress(address, false)).toBe(strict);
    expect(isBlockedAddress(address, true)).toBe(local);
  });
});

describe("cachedResolver", () => {
  /** {@link resolve}, counting the names it is asked. */
  const counting = () => {
    const asked: string[] = [];
    const counted: HostResolver = (hostname) => {
      asked.push(hostname);
      return resolve(hostname);
    };
    return { asked, counted };
  };
  const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

  test("when a name is checked again within the TTL, then it is not resolved again", async () => {
    const { asked, counted } = counting();
    const cached = cachedResolver(counted);

    const first = await checkDestination("https://both.example.com/a", { allowLocal: false, resolve: cached });
    const second = await checkDestination("https://both.example.com/b", { allowLocal: false, resolve: cached });

    expect(first).toMatchObject({ ok: true, addresses: ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"] });
    expect(second).toMatchObject({ ok: true, addresses: ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"] });
    expect(asked).toEqual(["both.example.com"]);
  });

  test("when many checks of one name run at once, then they share one resolution", async () => {
    const { asked, counted } = counting();
    const cached = cachedResolver(counted);

    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        checkDestination("https://hooks.example.com/", { allowLocal: false, resolve: cached }),
      ),
    );

    expect(results.every((result) => result.ok)).toBe(true);
    expect(asked).toEqual(["hooks.example.com"]);
  });

  test("when the TTL has passed, then the name is resolved again", async () => {
    const { asked, counted } = counting();
    const cached = cachedResolver(counted, { ttlMs: 20 });

    await cached("hooks.example.com");
    await sleep(40);
    await cached("hooks.example.com");

    expect(asked).toEqual(["hooks.example.com", "hooks.example.com"]);
  });

  test("when a name does not resolve, then the failure is not kept and the next check asks again", async () => {
    const { asked, counted } = counting();
    const cached = cachedResolver(counted);

    const first = await checkDestination("https://unknown.example.com/", { allowLocal: false, resolve: cached });
    const second = await checkDestination("https://unknown.example.com/", { allowLocal: false, resolve: cached });

    expect(first).toEqual({ ok: false, reason: "url host does not resolve" });
    expect(second).toEqual({ ok: false, reason: "url host does not resolve" });
    expect(asked).toEqual(["unknown.example.com", "unknown.example.com"]);
  });

  test.each([
    "private.example.com",
    "mixed.example.com",
    "mixed6.example.com",
    "metadata.example.com",
    "nat64.example.com",
  ])(
    "when %s is checked again from the kept answer, then its private address is refused every time",
    async (hostname) => {
      const { asked, counted } = counting();
      const cached = cachedResolver(counted);

      const checks = [];
      for (let i = 0; i < 3; i++)
        checks.push(await checkDestination(`https://${hostname}/`, { allowLocal: true, resolve: cached }));

      expect(checks).toEqual(
        Array(3).fill({ ok: false, reason: "url host resolves to a private or reserved address" }),
      );
      expect(asked).toEqual([hostname]);
    },
  );

  test("when a caller changes the list it got, then the kept answer stays as resolved", async () => {
    const cached = cachedResolver(resolve);

    (await cached("hooks.example.com")).push("10.0.0.1");

    expect(await cached("hooks.example.com")).toEqual(["93.184.215.14"]);
  });

  test("when the system resolver is asked for localhost (/etc/hosts), then it answers loopback addresses only", async () => {
    const addresses = await resolveHostname("localhost");

    expect(addresses.length).toBeGreaterThan(0);
    expect(addresses.every((address) => isBlockedAddress(address, false) && !isBlockedAddress(address, true))).toBe(
      true,
    );
  });
});
