-- Issue 14: API processes cache the API keys they authenticate (packages/domain/src/api-keys/api-key-cache.ts) and
-- forget them all when `lm_api_keys` is notified. Every change that can refuse a key or change what it scopes does so,
-- whoever makes it: a key revoked, scheduled for revocation or deleted, and a store renamed (its name is written in
-- BR Codes). `last_used_at`, written once a minute per key, notifies nothing. One notification per statement; the
-- payload is not used.
CREATE FUNCTION notify_api_keys_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('lm_api_keys', '');
  RETURN NULL;
END
$$;

CREATE TRIGGER api_keys_changed
  AFTER UPDATE OF key_hash, store_id, mode, revoke_at, revoked_at OR DELETE OR TRUNCATE ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION notify_api_keys_changed();

CREATE TRIGGER stores_renamed
  AFTER UPDATE OF name ON stores
  FOR EACH STATEMENT EXECUTE FUNCTION notify_api_keys_changed();
