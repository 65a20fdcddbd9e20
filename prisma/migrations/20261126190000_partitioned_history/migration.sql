-- Retention (DESIGN §10 "Retention"): events, webhook deliveries and inbox items become tables partitioned BY RANGE
-- (id) in weeks (Monday 00:00 UTC to the next). Ids are `<prefix>_<ULID>` and a ULID starts with its creation time
-- in ms (10 Crockford base-32 characters), so a week's bound is `<prefix>_<that instant's 10 characters>` and, in the
-- byte order of the C.UTF-8 collation, every id made in that week sorts inside it. The primary key `(id)` stays valid
-- (it contains the partition key) and a look-up by id reads one partition. Dropping a week past retention is a catalog
-- change whose cost does not depend on how many rows the table holds; the worker's hourly `retention` job creates the
-- weeks ahead and drops the old ones (packages/domain/src/retention).
--
-- The partitions live in the schema `lm_partitions`, so that Prisma (which reads `public`) sees only the parents.
-- Existing rows are carried over: each table is renamed, a partitioned table of the same columns and defaults takes
-- its name, one partition per week from its oldest row's week to four weeks ahead receives its rows (ids below the
-- first week, such as a malformed one, go to `<table>_before`), and then every index and constraint the old table had
-- is made again under its own name, read from the catalog rather than written out here, since other migrations change
-- them. One exception: the foreign key from webhook_deliveries.event_id to events is not made again. A referenced
-- partition cannot be dropped while any row refers to it, and a delivery of an old event (a retry, a resend) can be
-- younger than the event; the application writes a delivery only with its event, in one statement, and never deletes
-- an event by itself, and the retention job keeps an event's week until every chain started before it has ended.

CREATE SCHEMA IF NOT EXISTS "lm_partitions";

-- The 10 base-32 characters of a ULID made at `ms`.
CREATE FUNCTION pg_temp.lm_ulid_time(ms bigint) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  alphabet CONSTANT text := '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  encoded text := '';
BEGIN
  FOR i IN 1..10 LOOP
    encoded := substr(alphabet, (ms % 32)::int + 1, 1) || encoded;
    ms := ms / 32;
  END LOOP;
  RETURN encoded;
END $$;

-- The creation time in ms of the ULID after `prefix_` in `id`, or null when it is not one.
CREATE FUNCTION pg_temp.lm_ulid_ms(id text, prefix text) RETURNS bigint LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  alphabet CONSTANT text := '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  body text := substr(id, length(prefix) + 2, 10);
  ms bigint := 0;
BEGIN
  IF id IS NULL OR left(id, length(prefix) + 1) <> prefix || '_' OR body !~ '^[0-7][0-9A-HJKMNP-TV-Z]{9}$' THEN
    RETURN NULL;
  END IF;
  FOR i IN 1..10 LOOP
    ms := ms * 32 + strpos(alphabet, substr(body, i, 1)) - 1;
  END LOOP;
  RETURN ms;
END $$;

-- Monday 00:00 UTC of the week of `at`.
CREATE FUNCTION pg_temp.lm_week_start(at timestamptz) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$
  SELECT date_trunc('week', at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
$$;

CREATE FUNCTION pg_temp.lm_partition_by_week(tab text, prefix text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  old_name CONSTANT text := tab || '_unpartitioned';
  saved_constraints text[];
  saved_indexes text[];
  oldest_ms bigint;
  newest_ms bigint;
  first_week timestamptz;
  last_week timestamptz;
  week timestamptz;
  statement text;
BEGIN
  -- Constraints (primary key, foreign keys other than to events, checks) and the indexes that back none of them.
  SELECT coalesce(array_agg(format('ALTER TABLE public.%I ADD CONSTRAINT %I %s', tab, c.conname,
                                   pg_get_constraintdef(c.oid)) ORDER BY c.contype DESC, c.conname), '{}')
    INTO saved_constraints
    FROM pg_constraint c
    WHERE c.conrelid = format('public.%I', tab)::regclass
      AND NOT (c.contype = 'f' AND c.confrelid = 'public.events'::regclass);
  SELECT coalesce(array_agg(i.indexdef ORDER BY i.indexname), '{}')
    INTO saved_indexes
    FROM pg_indexes i
    JOIN pg_class ic ON ic.relname = i.indexname AND ic.relnamespace = 'public'::regnamespace
    WHERE i.schemaname = 'public' AND i.tablename = tab
      AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = ic.oid);

  -- The oldest and newest ids that can be ULIDs of this era, read through the primary key.
  EXECUTE format('SELECT pg_temp.lm_ulid_ms(min(id), %L), pg_temp.lm_ulid_ms(max(id), %L) FROM public.%I
                  WHERE id >= %L AND id < %L', prefix, prefix, tab, prefix || '_0000000000', prefix || '_8')
    INTO oldest_ms, newest_ms;
  first_week := pg_temp.lm_week_start(least(now(), to_timestamp(oldest_ms / 1000.0)));
  last_week := pg_temp.lm_week_start(greatest(now(), to_timestamp(newest_ms / 1000.0))) + interval '4 weeks';

  EXECUTE format('ALTER TABLE public.%I RENAME TO %I', tab, old_name);
  EXECUTE format('CREATE TABLE public.%I (LIKE public.%I INCLUDING DEFAULTS INCLUDING GENERATED INCLUDING STORAGE '
                 'INCLUDING COMMENTS) PARTITION BY RANGE (id)', tab, old_name);
  EXECUTE format('CREATE TABLE lm_partitions.%I PARTITION OF public.%I FOR VALUES FROM (MINVALUE) TO (%L)',
                 tab || '_before', tab,
                 prefix || '_' || pg_temp.lm_ulid_time((extract(epoch FROM first_week) * 1000)::bigint));
  week := first_week;
  WHILE week <= last_week LOOP
    EXECUTE format('CREATE TABLE lm_partitions.%I PARTITION OF public.%I FOR VALUES FROM (%L) TO (%L)',
                   tab || '_' || to_char(week AT TIME ZONE 'UTC', 'YYYYMMDD'), tab,
                   prefix || '_' || pg_temp.lm_ulid_time((extract(epoch FROM week) * 1000)::bigint),
                   prefix || '_' || pg_temp.lm_ulid_time((extract(epoch FROM week + interval '1 week') * 1000)::bigint));
    week := week + interval '1 week';
  END LOOP;

  EXECUTE format('INSERT INTO public.%I SELECT * FROM public.%I', tab, old_name);
  EXECUTE format('DROP TABLE public.%I', old_name);
  FOREACH statement IN ARRAY saved_constraints LOOP
    EXECUTE statement;
  END LOOP;
  FOREACH statement IN ARRAY saved_indexes LOOP
    EXECUTE statement;
  END LOOP;
  EXECUTE format('ANALYZE public.%I', tab);
END $$;

-- The only foreign key to these tables; see above.
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT IF EXISTS "webhook_deliveries_event_id_fkey";

SELECT pg_temp.lm_partition_by_week('events', 'evt');
SELECT pg_temp.lm_partition_by_week('webhook_deliveries', 'whd');
SELECT pg_temp.lm_partition_by_week('inbox_items', 'inb');

-- The short-lived tables are deleted in batches through their end (DESIGN §10 "Retention": 30 days after it).
CREATE INDEX "sessions_expires_at_idx" ON "sessions"("expires_at");
CREATE INDEX "two_factor_challenges_expires_at_idx" ON "two_factor_challenges"("expires_at");
CREATE INDEX "mailed_tokens_expires_at_idx" ON "mailed_tokens"("expires_at");
CREATE INDEX "trusted_devices_expires_at_idx" ON "trusted_devices"("expires_at");
