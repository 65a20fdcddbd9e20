import { createTokenCache, refreshMarginMs, type IssuedToken } from "../src/token";

/** A token endpoint the test answers by hand: each call waits until the test resolves or rejects it. */
function scriptedEndpoint() {
  const pending: Array<{ resolve: (token: IssuedToken) => void; reject: (err: Error) => void }> = [];
  let issued = 0;
  return {
    fetch: () =>
      new Promise<IssuedToken>((resolve, reject) => {
        pending.push({ resolve, reject });
      }),
    calls: () => pending.length,
    answer(expiresInSeconds: number | null = 3600) {
      issued += 1;
      pending.shift()?.resolve({ accessToken: `token-${issued}`, expiresInSeconds });
    },
    fail(err: Error) {
      pending.shift()?.reject(err);
    },
  };
}

/** Lets pending promise reactions run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("refreshMarginMs", () => {
  test("when the token lives long, then 60 s; when short, then a tenth of its life", () => {
    expect(refreshMarginMs(3600)).toBe(60_000);
    expect(refreshMarginMs(600)).toBe(60_000);
    expect(refreshMarginMs(300)).toBe(30_000);
    expect(refreshMarginMs(10)).toBe(1000);
  });
});

describe("createTokenCache", () => {
  let clock: number;
  beforeEach(() => {
    clock = 1_000_000;
  });

  test("when the token is fresh, then it is reused without asking the endpoint again", async () => {
    const endpoint = scriptedEndpoint();
    const cache = createTokenCache(endpoint.fetch, () => clock);

    const first = cache.get();
    endpoint.answer(3600);
    expect(await first).toBe("token-1");
    clock += 3600_000 - 60_000 - 1;

    expect(await cache.get()).toBe("token-1");
    expect(endpoint.calls()).toBe(0);
  });

  test("when the token is within 60 s of expiry, then a new one is fetched", async () => {
    const endpoint = scriptedEndpoint();
    const cache = createTokenCache(endpoint.fetch, () => clock);
    const first = cache.get();
    endpoint.answer(3600);
    await first;

    clock += 3600_000 - 60_000;
    const second = cache.get();
    expect(endpoint.calls()).toBe(1);
    endpoint.answer(3600);

    expect(await second).toBe("token-2");
  });

  test("when a short-lived token has a tenth of its life left, then a new one is fetched", async () => {
    const endpoint = scriptedEndpoint();
    const cache = createTokenCache(endpoint.fetch, () => clock);
    const first = cache.get();
    endpoint.answer(100);
    await first;

    clock += 89_999;
    expect(await cache.get()).toBe("token-1");
    clock += 1;
    const second = cache.get();
    endpoint.answer(100);
    expect(await second).toBe("token-2");
  });

  test("when the lifetime is counted, then it starts when the token was asked for, not when it arrived", async () => {
    const endpoint = scriptedEndpoint();
    const cache = createTokenCache(endpoint.fetch, () => clock);
    const first = cache.get();
    clock += 30_000;
    endpoint.answer(100);
    await first;

    clock += 60_000;
    const second = cache.get();
    expect(endpoint.calls()).toBe(1);
    endpoint.answer(100);
    await second;
  });

  test("when 20 callers need a token at once, then one request is made and all of them get its token", async () => {
    const endpoint = scriptedEndpoint();
    const cache = createTokenCache(endpoint.fetch, () => clock);

    const callers = Array.from({ length: 20 }, () => cache.get());
    await settle();
    expect(endpoint.calls()).toBe(1);
    endpoint.answer();

    expect(new Set(await Promise.all(callers))).toEqual(new Set(["token-1"]));
    expect(endpoint.calls()).toBe(0);
  });

  test("when a refresh fails, then every waiting caller gets the error and the next call asks again", async () => {
    const endpoint = scriptedEndpoint();
    const cache = createTokenCache(endpoint.fetch, () => clock);

    const callers = Array.from({ length: 3 }, () => cache.get());
    endpoint.fail(new Error("token endpoint down"));
    for (const caller of callers) await expect(caller).rejects.toThrow("token endpoint down");

    const retry = cache.get();
    expect(endpoint.calls()).toBe(1);
    endpoint.answer();
    expect(await retry).toBe("token-1");
  });

  test("when the fetcher throws before returning a promise, then the cache is not stuck", async () => {
    let calls = 0;
    const cache = createTokenCache(() => {
      calls += 1;
      if (calls === 1) throw new Error("bad configuration");
      return Promise.resolve({ accessToken: "token-ok", expiresInSeconds: 3600 });
    });

    await expect(cache.get()).rejects.toThrow("bad configuration");
    expect(await cache.get()).toBe("token-ok");
  });

  test("when the cached token is invalidated, then the next call fetches a new one", async () => {
    const endpoint = scriptedEndpoint();
    const cache = createTokenCache(endpoint.fetch, () => clock);
    const first = cache.get();
    endpoint.answer();
    await first;

    cache.invalidate("token-1");
    const second = cache.get();
    endpoint.answer();

    expect(await second).toBe("token-2");
  });

  test("when an older token is invalidated after a newer one was cached, then the newer one stays", async () => {
    const endpoint = scriptedEndpoint();
    const cache = createTokenCache(endpoint.fetch, () => clock);
    const first = cache.get();
    endpoint.answer();
    await first;
    cache.invalidate("token-1");
    const second = cache.get();
    endpoint.answer();
    await second;

    cache.invalidate("token-1");

    expect(await cache.get()).toBe("token-2");
    expect(endpoint.calls()).toBe(0);
  });

  test("when the endpoint gave no expires_in, then the token is kept until it is invalidated", async () => {
    const endpoint = scriptedEndpoint();
    const cache = createTokenCache(endpoint.fetch, () => clock);
    const first = cache.get();
    endpoint.answer(null);
    await first;

    clock += 365 * 24 * 3600_000;
    expect(await cache.get()).toBe("token-1");
    expect(endpoint.calls()).toBe(0);
  });
});
