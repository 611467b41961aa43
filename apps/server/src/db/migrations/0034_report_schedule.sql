CREATE TABLE "report_embed" (
	"id" integer PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"tool" varchar(16) NOT NULL,
	"site_url" varchar(300) NOT NULL,
	"secret_enc" text NOT NULL,
	"site_param" varchar(64) DEFAULT 'site_id' NOT NULL,
	"dashboards" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_schedule" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" varchar(64) NOT NULL,
	"template" varchar(16) NOT NULL,
	"site_ids" jsonb NOT NULL,
	"granularity" varchar(8) NOT NULL,
	"currency" varchar(3),
	"format" varchar(8) NOT NULL,
	"frequency" varchar(8) NOT NULL,
	"hour" smallint NOT NULL,
	"weekday" smallint NOT NULL,
	"month_day" smallint NOT NULL,
	"time_zone" varchar(64) NOT NULL,
	"user_ids" jsonb NOT NULL,
	"role_ids" jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"remark" varchar(200),
	"owner_id" integer,
	"next_run_at" timestamp with time zone,
	"last_run_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_schedule_run" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"schedule_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"start" varchar(10) NOT NULL,
	"end" varchar(10) NOT NULL,
	"state" varchar(8) NOT NULL,
	"recipients" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" varchar(1000),
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "mail_log" ADD COLUMN "attachments" jsonb;--> statement-breakpoint
ALTER TABLE "report_schedule" ADD CONSTRAINT "report_schedule_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_schedule_run" ADD CONSTRAINT "report_schedule_run_schedule_id_report_schedule_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."report_schedule"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_schedule_run" ADD CONSTRAINT "report_schedule_run_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "report_schedule_company_name_uq" ON "report_schedule" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "report_schedule_due_idx" ON "report_schedule" USING btree ("next_run_at") WHERE "report_schedule"."enabled";--> statement-breakpoint
CREATE UNIQUE INDEX "report_schedule_run_due_uq" ON "report_schedule_run" USING btree ("schedule_id","due_at");--> statement-breakpoint
CREATE INDEX "report_schedule_run_company_idx" ON "report_schedule_run" USING btree ("company_id","started_at");