-- Raw telemetry partitioned by UTC day (docs/decisions/0028): retention drops a day's partition
-- instead of deleting its rows, and time-range queries scan only the days they touch. A DEFAULT
-- partition takes any reading whose day has no partition yet (late data, clock skew), so a write
-- never fails for a missing partition; ess_telemetry_partition() later makes that day's partition
-- and moves those rows into it. The existing rows are kept: the old table is renamed, the
-- partitioned one made with the same columns and indexes, a partition made for every day the old
-- rows have, the rows copied, the old table dropped.
ALTER TABLE "telemetry" RENAME TO "telemetry_unpartitioned";--> statement-breakpoint
DROP INDEX "telemetry_ts_brin";--> statement-breakpoint
DROP INDEX "telemetry_device_ts_idx";--> statement-breakpoint
CREATE TABLE "telemetry" (
	"device_id" integer NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"seq" integer,
	"v" double precision[] NOT NULL
) PARTITION BY RANGE ("ts");--> statement-breakpoint
CREATE INDEX "telemetry_ts_brin" ON "telemetry" USING brin ("ts");--> statement-breakpoint
CREATE INDEX "telemetry_device_ts_idx" ON "telemetry" USING btree ("device_id","ts");--> statement-breakpoint
CREATE TABLE "telemetry_default" PARTITION OF "telemetry" DEFAULT;--> statement-breakpoint
-- Makes the partition of one UTC day, telemetry_pYYYYMMDD = [day 00:00 UTC, next day 00:00 UTC),
-- unless it exists; returns whether it made it. The default partition's rows of that day move
-- into it. Writers into telemetry wait meanwhile (SHARE ROW EXCLUSIVE on the parent, for the few
-- milliseconds an empty day takes): a COPY that started routing before would otherwise put a row
-- of the day into the default partition after the move and fail on its new constraint. A lock
-- not had within 5 s gives up (the periodic job tries again) instead of queueing the ingest
-- behind a long reader of the default partition. Run by several instances at once, the second
-- finds the partition made when it gets the lock.
CREATE OR REPLACE FUNCTION ess_telemetry_partition(day date) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  part text := 'telemetry_p' || to_char(day, 'YYYYMMDD');
  lo timestamptz := day::timestamp AT TIME ZONE 'UTC';
  hi timestamptz := (day + 1)::timestamp AT TIME ZONE 'UTC';
BEGIN
  IF to_regclass(part) IS NOT NULL THEN RETURN false; END IF;
  PERFORM set_config('lock_timeout', '5s', true);
  LOCK TABLE telemetry IN SHARE ROW EXCLUSIVE MODE;
  LOCK TABLE telemetry_default IN ACCESS EXCLUSIVE MODE;
  IF to_regclass(part) IS NOT NULL THEN RETURN false; END IF;
  EXECUTE format('CREATE TABLE %I (LIKE telemetry INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', part);
  EXECUTE format('WITH moved AS (DELETE FROM telemetry_default WHERE ts >= $1 AND ts < $2 RETURNING device_id, ts, seq, v) '
    'INSERT INTO %I (device_id, ts, seq, v) SELECT device_id, ts, seq, v FROM moved', part) USING lo, hi;
  EXECUTE format('ALTER TABLE telemetry ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', part, lo, hi);
  RETURN true;
END
$$;--> statement-breakpoint
-- Drops the day partitions that end at or before `cutoff` (the whole day past retention); returns
-- their names. DROP takes an ACCESS EXCLUSIVE lock on the parent for a moment: not had within 5 s,
-- it gives up until the next run rather than hold the ingest behind a long reader.
CREATE OR REPLACE FUNCTION ess_telemetry_drop_partitions(cutoff timestamptz) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
  part text;
BEGIN
  PERFORM set_config('lock_timeout', '5s', true);
  FOR part IN
    SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = 'telemetry'::regclass AND c.relname ~ '^telemetry_p[0-9]{8}$'
      AND (to_date(substr(c.relname, 12), 'YYYYMMDD') + 1)::timestamp AT TIME ZONE 'UTC' <= cutoff
    ORDER BY c.relname
  LOOP
    EXECUTE format('DROP TABLE %I', part);
    RETURN NEXT part;
  END LOOP;
END
$$;--> statement-breakpoint
SELECT ess_telemetry_partition(d) FROM (SELECT DISTINCT (ts AT TIME ZONE 'UTC')::date AS d FROM "telemetry_unpartitioned") AS days;--> statement-breakpoint
INSERT INTO "telemetry" ("device_id", "ts", "seq", "v") SELECT "device_id", "ts", "seq", "v" FROM "telemetry_unpartitioned";--> statement-breakpoint
DROP TABLE "telemetry_unpartitioned";
