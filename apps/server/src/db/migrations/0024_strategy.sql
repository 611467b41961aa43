CREATE TABLE "strategy" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"schedules" jsonb NOT NULL,
	"soc_min" double precision NOT NULL,
	"soc_max" double precision NOT NULL,
	"transformer_protection_kw" double precision,
	"anti_backflow" boolean NOT NULL,
	"demand_target_kw" double precision,
	"updated_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sync_state" varchar(16) DEFAULT 'unsynced' NOT NULL,
	"synced_hash" varchar(16),
	"synced_payload" jsonb,
	"applied_hash" varchar(16),
	"reported_hash" varchar(16),
	"sent_at" timestamp with time zone,
	"applied_at" timestamp with time zone,
	"reported_at" timestamp with time zone,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"last_error" varchar(500),
	CONSTRAINT "strategy_site_id_unique" UNIQUE("site_id")
);
--> statement-breakpoint
ALTER TABLE "strategy" ADD CONSTRAINT "strategy_site_id_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."site"("id") ON DELETE cascade ON UPDATE no action;