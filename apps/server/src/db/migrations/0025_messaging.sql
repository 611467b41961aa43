CREATE TABLE "mail_account" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" varchar(64) NOT NULL,
	"host" varchar(253) NOT NULL,
	"port" integer NOT NULL,
	"tls_mode" varchar(16) NOT NULL,
	"verify_certificate" boolean DEFAULT true NOT NULL,
	"username" varchar(128),
	"password_enc" text,
	"from_name" varchar(64),
	"from_address" varchar(254) NOT NULL,
	"reply_to" varchar(254),
	"daily_limit" integer DEFAULT 500 NOT NULL,
	"sent_day" varchar(10),
	"sent_today" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"remark" varchar(200),
	"last_test_at" timestamp with time zone,
	"last_test_ok" boolean,
	"last_test_reason" varchar(500),
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"recipient" varchar(254) NOT NULL,
	"user_id" integer,
	"template_id" integer,
	"template_name" varchar(64),
	"template_code" varchar(64),
	"language" varchar(8),
	"origin" varchar(8) NOT NULL,
	"event_id" bigint,
	"event_type" varchar(64),
	"rule_id" integer,
	"state" varchar(16) DEFAULT 'queued' NOT NULL,
	"provider_message_id" varchar(256),
	"error" varchar(1000),
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"next_attempt_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"account_id" integer,
	"account_name" varchar(64),
	"subject" varchar(1000) NOT NULL,
	"html" text NOT NULL,
	"text" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_template" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" varchar(64) NOT NULL,
	"code" varchar(64) NOT NULL,
	"language" varchar(8) NOT NULL,
	"subject" varchar(200) NOT NULL,
	"html" text NOT NULL,
	"text" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"remark" varchar(200),
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_delivery" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"event_id" bigint NOT NULL,
	"event_type" varchar(64) NOT NULL,
	"rule_id" integer,
	"channel" varchar(8) NOT NULL,
	"recipient_key" varchar(280) NOT NULL,
	"user_id" integer,
	"step" smallint DEFAULT 0 NOT NULL,
	"subject_type" varchar(32),
	"subject_id" bigint,
	"state" varchar(16) DEFAULT 'queued' NOT NULL,
	"due_at" timestamp with time zone DEFAULT now() NOT NULL,
	"held_reason" varchar(200),
	"mail_log_id" bigint,
	"sms_log_id" bigint,
	"notification_id" bigint,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" varchar(1000),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_rule" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" varchar(64) NOT NULL,
	"event" varchar(32) NOT NULL,
	"max_level" smallint,
	"minutes" integer,
	"site_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"channels" varchar(8)[] NOT NULL,
	"mail_template_code" varchar(64),
	"sms_template_code" varchar(64),
	"mail_account_id" integer,
	"sms_channel_id" integer,
	"recipients" jsonb NOT NULL,
	"quiet_hours" jsonb,
	"escalation" jsonb,
	"enabled" boolean DEFAULT true NOT NULL,
	"remark" varchar(200),
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sms_channel" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" varchar(64) NOT NULL,
	"provider" varchar(16) NOT NULL,
	"access_key_id" varchar(128) NOT NULL,
	"secret_enc" text,
	"region" varchar(32),
	"app_id" varchar(64),
	"sender" varchar(64),
	"sign_name" varchar(64),
	"endpoint" varchar(256),
	"daily_limit" integer DEFAULT 1000 NOT NULL,
	"sent_day" varchar(10),
	"sent_today" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"remark" varchar(200),
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sms_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"recipient" varchar(254) NOT NULL,
	"user_id" integer,
	"template_id" integer,
	"template_name" varchar(64),
	"template_code" varchar(64),
	"language" varchar(8),
	"origin" varchar(8) NOT NULL,
	"event_id" bigint,
	"event_type" varchar(64),
	"rule_id" integer,
	"state" varchar(16) DEFAULT 'queued' NOT NULL,
	"provider_message_id" varchar(256),
	"error" varchar(1000),
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"next_attempt_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"channel_id" integer,
	"channel_name" varchar(64),
	"provider" varchar(16),
	"content" varchar(2000) NOT NULL,
	"params" jsonb,
	"provider_template_code" varchar(64),
	"sign_name" varchar(64),
	"segments" smallint DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sms_template" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" varchar(64) NOT NULL,
	"code" varchar(64) NOT NULL,
	"language" varchar(8) NOT NULL,
	"content" varchar(1000) NOT NULL,
	"provider_template_code" varchar(64),
	"sign_name" varchar(64),
	"enabled" boolean DEFAULT true NOT NULL,
	"remark" varchar(200),
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mail_account" ADD CONSTRAINT "mail_account_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_log" ADD CONSTRAINT "mail_log_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_log" ADD CONSTRAINT "mail_log_account_id_mail_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."mail_account"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_template" ADD CONSTRAINT "mail_template_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_delivery" ADD CONSTRAINT "message_delivery_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_delivery" ADD CONSTRAINT "message_delivery_rule_id_message_rule_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."message_rule"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_rule" ADD CONSTRAINT "message_rule_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_rule" ADD CONSTRAINT "message_rule_mail_account_id_mail_account_id_fk" FOREIGN KEY ("mail_account_id") REFERENCES "public"."mail_account"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_rule" ADD CONSTRAINT "message_rule_sms_channel_id_sms_channel_id_fk" FOREIGN KEY ("sms_channel_id") REFERENCES "public"."sms_channel"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_channel" ADD CONSTRAINT "sms_channel_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_log" ADD CONSTRAINT "sms_log_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_log" ADD CONSTRAINT "sms_log_channel_id_sms_channel_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."sms_channel"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_template" ADD CONSTRAINT "sms_template_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mail_account_company_name_uq" ON "mail_account" USING btree ("company_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "mail_account_company_default_uq" ON "mail_account" USING btree ("company_id") WHERE "mail_account"."is_default";--> statement-breakpoint
CREATE INDEX "mail_log_company_created_idx" ON "mail_log" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "mail_log_created_idx" ON "mail_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "mail_log_due_idx" ON "mail_log" USING btree ("next_attempt_at") WHERE "mail_log"."state" in ('queued', 'retrying');--> statement-breakpoint
CREATE UNIQUE INDEX "mail_template_company_code_lang_uq" ON "mail_template" USING btree ("company_id","code","language");--> statement-breakpoint
CREATE UNIQUE INDEX "message_delivery_dedup_uq" ON "message_delivery" USING btree ("event_id","channel","recipient_key","step");--> statement-breakpoint
CREATE INDEX "message_delivery_due_idx" ON "message_delivery" USING btree ("due_at") WHERE "message_delivery"."state" in ('queued', 'retrying');--> statement-breakpoint
CREATE INDEX "message_delivery_subject_idx" ON "message_delivery" USING btree ("subject_type","subject_id");--> statement-breakpoint
CREATE INDEX "message_rule_company_event_idx" ON "message_rule" USING btree ("company_id","event");--> statement-breakpoint
CREATE UNIQUE INDEX "sms_channel_company_name_uq" ON "sms_channel" USING btree ("company_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "sms_channel_company_default_uq" ON "sms_channel" USING btree ("company_id") WHERE "sms_channel"."is_default";--> statement-breakpoint
CREATE INDEX "sms_log_company_created_idx" ON "sms_log" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "sms_log_created_idx" ON "sms_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "sms_log_due_idx" ON "sms_log" USING btree ("next_attempt_at") WHERE "sms_log"."state" in ('queued', 'retrying');--> statement-breakpoint
CREATE UNIQUE INDEX "sms_template_company_code_lang_uq" ON "sms_template" USING btree ("company_id","code","language");