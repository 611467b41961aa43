CREATE TABLE "firmware_key" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" varchar(64) NOT NULL,
	"algorithm" varchar(16) NOT NULL,
	"public_key_pem" text NOT NULL,
	"fingerprint" varchar(64) NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"remark" varchar(200),
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "firmware_log_capture" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" varchar(64) NOT NULL,
	"from_at" timestamp with time zone NOT NULL,
	"to_at" timestamp with time zone NOT NULL,
	"timeout_minutes" integer NOT NULL,
	"state" varchar(12) DEFAULT 'running' NOT NULL,
	"remark" varchar(200),
	"finished_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "firmware_log_device" (
	"id" serial PRIMARY KEY NOT NULL,
	"capture_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"state" varchar(12) DEFAULT 'pending' NOT NULL,
	"bytes" bigint,
	"reason" varchar(500),
	"storage_key" varchar(80),
	"content_type" varchar(64),
	"command_id" varchar(64),
	"issued_at" timestamp with time zone,
	"deadline_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "firmware_package" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"device_type" varchar(32) NOT NULL,
	"product_id" integer,
	"name" varchar(64) NOT NULL,
	"version" varchar(32) NOT NULL,
	"upgrade_from" varchar(200),
	"release_notes" text,
	"file_name" varchar(200) NOT NULL,
	"storage_key" varchar(80) NOT NULL,
	"size" bigint NOT NULL,
	"sha256" varchar(64) NOT NULL,
	"signature" text,
	"signature_algorithm" varchar(16),
	"key_id" integer,
	"state" varchar(12) DEFAULT 'released' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "firmware_package_storage_key_unique" UNIQUE("storage_key")
);
--> statement-breakpoint
CREATE TABLE "firmware_rollout" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" varchar(64) NOT NULL,
	"package_id" integer NOT NULL,
	"state" varchar(16) NOT NULL,
	"target" jsonb NOT NULL,
	"grouping" jsonb NOT NULL,
	"success_threshold" smallint NOT NULL,
	"error_threshold" smallint NOT NULL,
	"require_approval" boolean DEFAULT false NOT NULL,
	"approved_by" integer,
	"approved_at" timestamp with time zone,
	"approval_note" varchar(200),
	"start_at" timestamp with time zone,
	"windows" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"safe_gate" boolean DEFAULT true NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"pause_reason" varchar(200),
	"remark" varchar(200),
	"revision" integer DEFAULT 0 NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "firmware_rollout_group" (
	"id" serial PRIMARY KEY NOT NULL,
	"rollout_id" integer NOT NULL,
	"no" smallint NOT NULL,
	"canary" boolean DEFAULT false NOT NULL,
	"state" varchar(16) DEFAULT 'waiting' NOT NULL,
	"success_threshold" smallint NOT NULL,
	"error_threshold" smallint NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "firmware_setting" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"max_package_mb" integer DEFAULT 256 NOT NULL,
	"allow_unsigned" boolean DEFAULT true NOT NULL,
	"token_ttl_minutes" integer DEFAULT 30 NOT NULL,
	"success_threshold" smallint DEFAULT 50 NOT NULL,
	"error_threshold" smallint DEFAULT 50 NOT NULL,
	"require_approval" boolean DEFAULT false NOT NULL,
	"command_timeout_seconds" integer DEFAULT 30 NOT NULL,
	"download_timeout_minutes" integer DEFAULT 30 NOT NULL,
	"flash_timeout_minutes" integer DEFAULT 20 NOT NULL,
	"soc_min" smallint DEFAULT 20 NOT NULL,
	"soc_max" smallint DEFAULT 90 NOT NULL,
	"log_timeout_minutes" integer DEFAULT 10 NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "firmware_task" (
	"id" serial PRIMARY KEY NOT NULL,
	"rollout_id" integer NOT NULL,
	"group_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"from_version" varchar(32),
	"to_version" varchar(32) NOT NULL,
	"reported_version" varchar(32),
	"state" varchar(16) DEFAULT 'pendingStart' NOT NULL,
	"progress" smallint,
	"wait_reason" varchar(20),
	"reason" varchar(500),
	"attempts" smallint DEFAULT 0 NOT NULL,
	"command_id" varchar(64),
	"deadline_at" timestamp with time zone,
	"issued_at" timestamp with time zone,
	"flashed_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "firmware_task_step" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"task_id" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"state" varchar(16) NOT NULL,
	"progress" smallint,
	"wait_reason" varchar(20),
	"reason" varchar(500)
);
--> statement-breakpoint
CREATE TABLE "firmware_upload" (
	"id" varchar(64) PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"meta" jsonb NOT NULL,
	"size" bigint NOT NULL,
	"received" bigint DEFAULT 0 NOT NULL,
	"state" varchar(12) DEFAULT 'uploading' NOT NULL,
	"package_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "firmware_key" ADD CONSTRAINT "firmware_key_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_log_capture" ADD CONSTRAINT "firmware_log_capture_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_log_device" ADD CONSTRAINT "firmware_log_device_capture_id_firmware_log_capture_id_fk" FOREIGN KEY ("capture_id") REFERENCES "public"."firmware_log_capture"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_log_device" ADD CONSTRAINT "firmware_log_device_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_log_device" ADD CONSTRAINT "firmware_log_device_site_id_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_package" ADD CONSTRAINT "firmware_package_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_package" ADD CONSTRAINT "firmware_package_key_id_firmware_key_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."firmware_key"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_rollout" ADD CONSTRAINT "firmware_rollout_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_rollout" ADD CONSTRAINT "firmware_rollout_package_id_firmware_package_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."firmware_package"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_rollout_group" ADD CONSTRAINT "firmware_rollout_group_rollout_id_firmware_rollout_id_fk" FOREIGN KEY ("rollout_id") REFERENCES "public"."firmware_rollout"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_task" ADD CONSTRAINT "firmware_task_rollout_id_firmware_rollout_id_fk" FOREIGN KEY ("rollout_id") REFERENCES "public"."firmware_rollout"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_task" ADD CONSTRAINT "firmware_task_group_id_firmware_rollout_group_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."firmware_rollout_group"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_task" ADD CONSTRAINT "firmware_task_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_task" ADD CONSTRAINT "firmware_task_site_id_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_task_step" ADD CONSTRAINT "firmware_task_step_task_id_firmware_task_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."firmware_task"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_upload" ADD CONSTRAINT "firmware_upload_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "firmware_key_company_fingerprint_uq" ON "firmware_key" USING btree ("company_id","fingerprint");--> statement-breakpoint
CREATE INDEX "firmware_log_capture_state_idx" ON "firmware_log_capture" USING btree ("state");--> statement-breakpoint
CREATE UNIQUE INDEX "firmware_log_device_uq" ON "firmware_log_device" USING btree ("capture_id","device_id");--> statement-breakpoint
CREATE INDEX "firmware_log_device_deadline_idx" ON "firmware_log_device" USING btree ("state","deadline_at");--> statement-breakpoint
CREATE UNIQUE INDEX "firmware_package_version_uq" ON "firmware_package" USING btree ("company_id","device_type",coalesce("product_id", 0),"name","version");--> statement-breakpoint
CREATE INDEX "firmware_package_type_idx" ON "firmware_package" USING btree ("device_type","name");--> statement-breakpoint
CREATE INDEX "firmware_rollout_state_idx" ON "firmware_rollout" USING btree ("state");--> statement-breakpoint
CREATE INDEX "firmware_rollout_package_idx" ON "firmware_rollout" USING btree ("package_id");--> statement-breakpoint
CREATE UNIQUE INDEX "firmware_rollout_group_no_uq" ON "firmware_rollout_group" USING btree ("rollout_id","no");--> statement-breakpoint
CREATE UNIQUE INDEX "firmware_task_rollout_device_uq" ON "firmware_task" USING btree ("rollout_id","device_id");--> statement-breakpoint
CREATE INDEX "firmware_task_group_state_idx" ON "firmware_task" USING btree ("group_id","state");--> statement-breakpoint
CREATE INDEX "firmware_task_device_idx" ON "firmware_task" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "firmware_task_deadline_idx" ON "firmware_task" USING btree ("deadline_at");--> statement-breakpoint
CREATE INDEX "firmware_task_step_task_idx" ON "firmware_task_step" USING btree ("task_id","id");--> statement-breakpoint
CREATE INDEX "firmware_upload_expires_idx" ON "firmware_upload" USING btree ("state","expires_at");--> statement-breakpoint
INSERT INTO "firmware_setting" ("id") VALUES (1) ON CONFLICT DO NOTHING;