CREATE TABLE "demand_bill" (
	"site_id" integer NOT NULL,
	"month" varchar(7) NOT NULL,
	"bill_max_kw" double precision NOT NULL,
	"note" varchar(200),
	"user_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "demand_bill_site_id_month_pk" PRIMARY KEY("site_id","month")
);
--> statement-breakpoint
CREATE TABLE "demand_setting" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"month" varchar(7),
	"target_kw" double precision NOT NULL,
	"margin_kw" double precision NOT NULL,
	"allow_discharge" boolean DEFAULT false NOT NULL,
	"alarm_level" smallint DEFAULT 2 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"replaced_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "demand_window" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"import_kwh" double precision,
	"demand_kw" double precision,
	"start_register" double precision,
	"end_register" double precision,
	"import_estimated" boolean DEFAULT false NOT NULL,
	"storage" jsonb,
	"charge_kwh" double precision,
	"discharge_kwh" double precision,
	"storage_estimated" boolean DEFAULT false NOT NULL,
	"meter_max_kw" double precision,
	"meter_max_time" timestamp with time zone,
	"target_kw" double precision,
	"exceeded" boolean DEFAULT false NOT NULL,
	"pre_alarmed" boolean DEFAULT false NOT NULL,
	"projected_kw" double precision,
	"pre_alarm_at" timestamp with time zone,
	"guard_requested" boolean DEFAULT false NOT NULL,
	"guard_at" timestamp with time zone,
	"guard_kw" double precision,
	"guard_until" timestamp with time zone,
	"guard_request_id" varchar(64),
	"guard_status" varchar(16),
	"guard_granted_kw" double precision,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "demand_bill" ADD CONSTRAINT "demand_bill_site_id_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "demand_setting" ADD CONSTRAINT "demand_setting_site_id_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "demand_window" ADD CONSTRAINT "demand_window_site_id_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "demand_setting_current_uq" ON "demand_setting" USING btree ("site_id",coalesce("month", '')) WHERE "demand_setting"."replaced_at" is null;--> statement-breakpoint
CREATE INDEX "demand_setting_site_idx" ON "demand_setting" USING btree ("site_id","month");--> statement-breakpoint
CREATE UNIQUE INDEX "demand_window_site_ts_uq" ON "demand_window" USING btree ("site_id","ts");