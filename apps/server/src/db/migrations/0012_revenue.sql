CREATE TABLE "revenue_daily" (
	"site_id" integer NOT NULL,
	"day" date NOT NULL,
	"currency" varchar(8) NOT NULL,
	"charge" double precision DEFAULT 0 NOT NULL,
	"discharge" double precision DEFAULT 0 NOT NULL,
	"charge_by_period" jsonb NOT NULL,
	"discharge_by_period" jsonb NOT NULL,
	"charge_cost" numeric(16, 2) DEFAULT '0' NOT NULL,
	"discharge_income" numeric(16, 2) DEFAULT '0' NOT NULL,
	"arbitrage" numeric(16, 2) DEFAULT '0' NOT NULL,
	"pv" double precision,
	"pv_self_used" double precision,
	"pv_exported" double precision,
	"pv_revenue" numeric(16, 2) DEFAULT '0' NOT NULL,
	"piles" double precision,
	"charging_revenue" numeric(16, 2) DEFAULT '0' NOT NULL,
	"total" numeric(16, 2) DEFAULT '0' NOT NULL,
	"cycles" double precision,
	"prices_complete" boolean NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "revenue_daily_site_id_day_pk" PRIMARY KEY("site_id","day")
);
--> statement-breakpoint
ALTER TABLE "revenue_daily" ADD CONSTRAINT "revenue_daily_site_id_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."site"("id") ON DELETE cascade ON UPDATE no action;