CREATE TABLE "meter_change_reading" (
	"id" serial PRIMARY KEY NOT NULL,
	"change_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"changed_at" timestamp with time zone NOT NULL,
	"old_code" varchar(64) NOT NULL,
	"new_code" varchar(64) NOT NULL,
	"old_end" numeric(18, 3)[] NOT NULL,
	"old_end_ts" timestamp with time zone,
	"new_start" numeric(18, 3)[] NOT NULL,
	"new_start_ts" timestamp with time zone,
	"quality" varchar(16) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "meter_change_reading_change_id_unique" UNIQUE("change_id")
);
--> statement-breakpoint
CREATE TABLE "meter_period_reading" (
	"id" serial PRIMARY KEY NOT NULL,
	"subsystem" varchar(16) NOT NULL,
	"device_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"period_start" date NOT NULL,
	"period_end" date NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"start_registers" numeric(18, 3)[] NOT NULL,
	"end_registers" numeric(18, 3)[] NOT NULL,
	"differences" numeric(18, 3)[] NOT NULL,
	"quality" varchar(16) NOT NULL,
	"flags" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"segments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "meter_remeter_task" (
	"id" serial PRIMARY KEY NOT NULL,
	"subsystem" varchar(16) NOT NULL,
	"device_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"period_start" date NOT NULL,
	"period_end" date NOT NULL,
	"state" varchar(16) DEFAULT 'queued' NOT NULL,
	"progress" smallint DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"changed" boolean,
	"period_reading_id" integer,
	"error" varchar(500),
	"user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "meter_timing_config" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer,
	"site_id" integer,
	"name" varchar(64) NOT NULL,
	"kind" varchar(16) NOT NULL,
	"day" smallint,
	"time" varchar(5) NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "meter_timing_reading" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"config_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	"local_time" varchar(16) NOT NULL,
	"source_ts" timestamp with time zone,
	"quality" varchar(16) NOT NULL,
	"registers" numeric(18, 3)[] NOT NULL,
	"code" varchar(64) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "meter_zero_reading" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"reading_date" date NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	"source_ts" timestamp with time zone,
	"quality" varchar(16) NOT NULL,
	"registers" numeric(18, 3)[] NOT NULL,
	"code" varchar(64) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "meter_change_reading" ADD CONSTRAINT "meter_change_reading_change_id_device_change_id_fk" FOREIGN KEY ("change_id") REFERENCES "public"."device_change"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meter_change_reading" ADD CONSTRAINT "meter_change_reading_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meter_change_reading" ADD CONSTRAINT "meter_change_reading_site_id_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meter_period_reading" ADD CONSTRAINT "meter_period_reading_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meter_period_reading" ADD CONSTRAINT "meter_period_reading_site_id_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meter_remeter_task" ADD CONSTRAINT "meter_remeter_task_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meter_remeter_task" ADD CONSTRAINT "meter_remeter_task_site_id_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meter_remeter_task" ADD CONSTRAINT "meter_remeter_task_period_reading_id_meter_period_reading_id_fk" FOREIGN KEY ("period_reading_id") REFERENCES "public"."meter_period_reading"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meter_timing_config" ADD CONSTRAINT "meter_timing_config_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meter_timing_config" ADD CONSTRAINT "meter_timing_config_site_id_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meter_timing_reading" ADD CONSTRAINT "meter_timing_reading_config_id_meter_timing_config_id_fk" FOREIGN KEY ("config_id") REFERENCES "public"."meter_timing_config"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meter_timing_reading" ADD CONSTRAINT "meter_timing_reading_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meter_timing_reading" ADD CONSTRAINT "meter_timing_reading_site_id_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meter_zero_reading" ADD CONSTRAINT "meter_zero_reading_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meter_zero_reading" ADD CONSTRAINT "meter_zero_reading_site_id_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "meter_change_reading_device_idx" ON "meter_change_reading" USING btree ("device_id","changed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "meter_period_reading_uq" ON "meter_period_reading" USING btree ("device_id","period_start","period_end");--> statement-breakpoint
CREATE INDEX "meter_period_reading_site_idx" ON "meter_period_reading" USING btree ("site_id","subsystem","period_start");--> statement-breakpoint
CREATE UNIQUE INDEX "meter_remeter_task_active_uq" ON "meter_remeter_task" USING btree ("device_id","period_start","period_end") WHERE "meter_remeter_task"."state" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "meter_remeter_task_device_idx" ON "meter_remeter_task" USING btree ("device_id","period_start","created_at");--> statement-breakpoint
CREATE INDEX "meter_timing_config_site_idx" ON "meter_timing_config" USING btree ("site_id");--> statement-breakpoint
CREATE UNIQUE INDEX "meter_timing_reading_uq" ON "meter_timing_reading" USING btree ("config_id","device_id","read_at");--> statement-breakpoint
CREATE INDEX "meter_timing_reading_site_idx" ON "meter_timing_reading" USING btree ("site_id","read_at");--> statement-breakpoint
CREATE UNIQUE INDEX "meter_zero_reading_uq" ON "meter_zero_reading" USING btree ("device_id","reading_date");--> statement-breakpoint
CREATE INDEX "meter_zero_reading_site_idx" ON "meter_zero_reading" USING btree ("site_id","reading_date");