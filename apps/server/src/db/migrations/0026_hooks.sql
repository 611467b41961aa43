CREATE TABLE "hook" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" varchar(64) NOT NULL,
	"event_type" varchar(64) NOT NULL,
	"filter" jsonb DEFAULT '{"siteIds":[],"levels":[],"statuses":[]}'::jsonb NOT NULL,
	"script" text,
	"method" varchar(8) DEFAULT 'POST' NOT NULL,
	"url" varchar(2048) NOT NULL,
	"headers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"secret_enc" text NOT NULL,
	"secret_hint" varchar(16) NOT NULL,
	"timeout_ms" integer DEFAULT 10000 NOT NULL,
	"max_retries" smallint DEFAULT 5 NOT NULL,
	"backoff_ms" integer DEFAULT 10000 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"circuit" varchar(8) DEFAULT 'closed' NOT NULL,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"circuit_opened_at" timestamp with time zone,
	"circuit_probe_at" timestamp with time zone,
	"owner_id" integer,
	"remark" varchar(200),
	"last_delivery_at" timestamp with time zone,
	"last_delivery_state" varchar(10),
	"last_response_status" integer,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hook_delivery" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"hook_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"event_id" bigint,
	"event_type" varchar(64) NOT NULL,
	"event_at" timestamp with time zone NOT NULL,
	"payload" jsonb NOT NULL,
	"origin" varchar(8) DEFAULT 'event' NOT NULL,
	"state" varchar(10) DEFAULT 'queued' NOT NULL,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"leased_by" varchar(64),
	"lease_until" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "hook_exec_record" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"hook_id" integer NOT NULL,
	"hook_name" varchar(64) NOT NULL,
	"delivery_id" bigint,
	"event_id" bigint,
	"event_type" varchar(64) NOT NULL,
	"origin" varchar(8) DEFAULT 'event' NOT NULL,
	"attempt" smallint DEFAULT 1 NOT NULL,
	"state" varchar(10) DEFAULT 'running' NOT NULL,
	"input" jsonb,
	"output" jsonb,
	"script_hash" varchar(64),
	"method" varchar(8),
	"url" varchar(2048),
	"request" jsonb,
	"response_status" integer,
	"response" jsonb,
	"duration_ms" integer,
	"error" text,
	"next_attempt_at" timestamp with time zone,
	"replay_of" bigint,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "hook_param" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" varchar(64) NOT NULL,
	"kind" varchar(8) NOT NULL,
	"value" text,
	"value_enc" text,
	"remark" varchar(200),
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hook_setting" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"allow_private_targets" boolean DEFAULT false NOT NULL,
	"record_max_age_days" integer DEFAULT 30 NOT NULL,
	"record_max_count" integer DEFAULT 1000000 NOT NULL,
	"circuit_threshold" integer DEFAULT 5 NOT NULL,
	"circuit_cooldown_minutes" integer DEFAULT 10 NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "hook_trigger" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_type" varchar(64) NOT NULL,
	"module" varchar(32) NOT NULL,
	"name" varchar(64) NOT NULL,
	"payload_schema" jsonb NOT NULL,
	"status" varchar(8) DEFAULT 'active' NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"gone_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "hook" ADD CONSTRAINT "hook_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hook_delivery" ADD CONSTRAINT "hook_delivery_hook_id_hook_id_fk" FOREIGN KEY ("hook_id") REFERENCES "public"."hook"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hook_exec_record" ADD CONSTRAINT "hook_exec_record_hook_id_hook_id_fk" FOREIGN KEY ("hook_id") REFERENCES "public"."hook"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hook_exec_record" ADD CONSTRAINT "hook_exec_record_delivery_id_hook_delivery_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."hook_delivery"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hook_param" ADD CONSTRAINT "hook_param_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "hook_company_name_uq" ON "hook" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "hook_event_active_idx" ON "hook" USING btree ("event_type") WHERE "hook"."active";--> statement-breakpoint
CREATE UNIQUE INDEX "hook_delivery_hook_event_uq" ON "hook_delivery" USING btree ("hook_id","event_id");--> statement-breakpoint
CREATE INDEX "hook_delivery_due_idx" ON "hook_delivery" USING btree ("next_attempt_at") WHERE "hook_delivery"."state" in ('queued', 'retrying', 'running');--> statement-breakpoint
CREATE INDEX "hook_delivery_created_idx" ON "hook_delivery" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "hook_exec_record_hook_started_idx" ON "hook_exec_record" USING btree ("hook_id","started_at");--> statement-breakpoint
CREATE INDEX "hook_exec_record_company_started_idx" ON "hook_exec_record" USING btree ("company_id","started_at");--> statement-breakpoint
CREATE INDEX "hook_exec_record_started_idx" ON "hook_exec_record" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "hook_exec_record_delivery_idx" ON "hook_exec_record" USING btree ("delivery_id");--> statement-breakpoint
CREATE UNIQUE INDEX "hook_param_company_name_uq" ON "hook_param" USING btree ("company_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "hook_trigger_event_type_uq" ON "hook_trigger" USING btree ("event_type");--> statement-breakpoint
INSERT INTO "hook_setting" ("id") VALUES (1) ON CONFLICT DO NOTHING;
