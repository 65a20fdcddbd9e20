import { API_KEY_CACHE_MAX_ENTRIES, API_KEY_CACHE_TTL_MS, ApiKeyCache, type ApiKeyRow } from "../src";

const row = (id: string): ApiKeyRow => ({
  id,
  store_id: "str_1",
  mode: "test",
  last_used_at: null,
  revoke_at: null,
  revoked_at: null,
  store_name: "Loja",
});

describe("ApiKeyCache", () => {
  let clock = 0;
  let cache: ApiKeyCache;
  beforeEach(() => {
    clock = 0;
    cache = new ApiKeyCache(() => clock);
  });

  test("when the change feed is not online, then nothing is remembered", () => {
    cache.remember("h1", row("k1"), cache.generationNow());

    expect(cache.get("h1")).toBeUndefined();
  });

  test("when online, then a row is remembered until its TTL passes", () => {
    cache.setOnline(true);
    cache.remember("h1", row("k1"), cache.generationNow());

    clock = API_KEY_CACHE_TTL_MS;
    expect(cache.get("h1")?.id).toBe("k1");
    clock = API_KEY_CACHE_TTL_MS + 1;
    expect(cache.get("h1")).toBeUndefined();
  });

  test("when a change is heard while a row was being read, then that row is not remembered", () => {
    cache.setOnline(true);
    const readAt = cache.generationNow();
    cache.forgetAll();
    cache.remember("h1", row("k1"), readAt);

    expect(cache.get("h1")).toBeUndefined();
  });

  test("when a change is heard or the feed goes offline, then every row is forgotten", () => {
    cache.setOnline(true);
    cache.remember("h1", row("k1"), cache.generationNow());
    cache.forgetAll();
    expect(cache.get("h1")).toBeUndefined();

    cache.remember("h2", row("k2"), cache.generationNow());
    cache.setOnline(false);
    expect(cache.get("h2")).toBeUndefined();
  });

  test("when the cache is full, then it starts again empty rather than growing", () => {
    cache.setOnline(true);
    for (let i = 0; i <= API_KEY_CACHE_MAX_ENTRIES; i++) cache.remember(`h${i}`, row(`k${i}`), cache.generationNow());

    expect(cache.get("h0")).toBeUndefined();
    expect(cache.get(`h${API_KEY_CACHE_MAX_ENTRIES}`)?.id).toBe(`k${API_KEY_CACHE_MAX_ENTRIES}`);
  });
});
