-- Element-wise merges of rollup arrays (one element per property slot), used when partial
-- aggregates of the same device and bucket meet (ON CONFLICT): from later flushes of one ingest
-- instance or from several instances sharing the stream. Arrays of different lengths (a product
-- gained a property) zip with NULLs; NULL means "not reported" and never wins.
CREATE OR REPLACE FUNCTION ess_arr_add(a float8[], b float8[]) RETURNS float8[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(CASE WHEN x IS NULL THEN y WHEN y IS NULL THEN x ELSE x + y END ORDER BY i), '{}')
  FROM unnest(a, b) WITH ORDINALITY AS u(x, y, i)
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ess_arr_add(a int4[], b int4[]) RETURNS int4[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(coalesce(x, 0) + coalesce(y, 0) ORDER BY i), '{}')
  FROM unnest(a, b) WITH ORDINALITY AS u(x, y, i)
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ess_arr_least(a float8[], b float8[]) RETURNS float8[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(least(x, y) ORDER BY i), '{}')
  FROM unnest(a, b) WITH ORDINALITY AS u(x, y, i)
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ess_arr_greatest(a float8[], b float8[]) RETURNS float8[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(greatest(x, y) ORDER BY i), '{}')
  FROM unnest(a, b) WITH ORDINALITY AS u(x, y, i)
$$;
--> statement-breakpoint
-- The first/last values of the earlier/later side, element-wise falling back to the other side
-- where the chosen side has no value for a slot.
CREATE OR REPLACE FUNCTION ess_arr_prefer(a float8[], b float8[]) RETURNS float8[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(coalesce(x, y) ORDER BY i), '{}')
  FROM unnest(a, b) WITH ORDINALITY AS u(x, y, i)
$$;
