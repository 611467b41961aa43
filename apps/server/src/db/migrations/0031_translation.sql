CREATE TABLE "currency" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" varchar(3) NOT NULL,
	"symbol" varchar(8) NOT NULL,
	"name" varchar(64) NOT NULL,
	"minor_units" smallint NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "currency_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "i18n_completion" (
	"id" serial PRIMARY KEY NOT NULL,
	"domain" varchar(8) NOT NULL,
	"language_code" varchar(16) NOT NULL,
	"engine_id" integer,
	"ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"state" varchar(8) DEFAULT 'queued' NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "i18n_original" (
	"id" serial PRIMARY KEY NOT NULL,
	"domain" varchar(8) NOT NULL,
	"key" text NOT NULL,
	"source" text NOT NULL,
	"context" varchar(64),
	"node_id" integer,
	"record_id" integer,
	"max_length" integer,
	"obsolete" boolean DEFAULT false NOT NULL,
	"source_changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "i18n_refresh" (
	"id" serial PRIMARY KEY NOT NULL,
	"domain" varchar(8) NOT NULL,
	"added" integer NOT NULL,
	"changed" integer NOT NULL,
	"obsoleted" integer NOT NULL,
	"user_id" integer,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "i18n_translation" (
	"original_id" integer NOT NULL,
	"language_code" varchar(16) NOT NULL,
	"translation" text NOT NULL,
	"state" varchar(12) NOT NULL,
	"engine_id" integer,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "i18n_translation_original_id_language_code_pk" PRIMARY KEY("original_id","language_code")
);
--> statement-breakpoint
CREATE TABLE "language" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" varchar(16) NOT NULL,
	"name" varchar(64) NOT NULL,
	"native_name" varchar(64) NOT NULL,
	"direction" varchar(3) DEFAULT 'ltr' NOT NULL,
	"ui_locale" varchar(16),
	"date_format" varchar(32) DEFAULT 'YYYY-MM-DD' NOT NULL,
	"number_locale" varchar(16),
	"enabled" boolean DEFAULT true NOT NULL,
	"built_in" boolean DEFAULT false NOT NULL,
	"sort" integer DEFAULT 100 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "language_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "text_node" (
	"id" serial PRIMARY KEY NOT NULL,
	"field" varchar(64) NOT NULL,
	"name" varchar(64) NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"remark" varchar(200),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "text_node_field_unique" UNIQUE("field")
);
--> statement-breakpoint
CREATE TABLE "translation_engine" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(64) NOT NULL,
	"kind" varchar(16) NOT NULL,
	"endpoint" varchar(300),
	"app_id" varchar(64),
	"key_enc" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"batch_size" smallint DEFAULT 20 NOT NULL,
	"remark" varchar(200),
	"last_checked_at" timestamp with time zone,
	"last_check_ok" boolean,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "translation_engine_name_unique" UNIQUE("name")
);
--> statement-breakpoint
ALTER TABLE "i18n_completion" ADD CONSTRAINT "i18n_completion_engine_id_translation_engine_id_fk" FOREIGN KEY ("engine_id") REFERENCES "public"."translation_engine"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "i18n_original" ADD CONSTRAINT "i18n_original_node_id_text_node_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."text_node"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "i18n_translation" ADD CONSTRAINT "i18n_translation_original_id_i18n_original_id_fk" FOREIGN KEY ("original_id") REFERENCES "public"."i18n_original"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "i18n_translation" ADD CONSTRAINT "i18n_translation_language_code_language_code_fk" FOREIGN KEY ("language_code") REFERENCES "public"."language"("code") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "i18n_completion_language" ON "i18n_completion" USING btree ("language_code","state");--> statement-breakpoint
CREATE UNIQUE INDEX "i18n_original_domain_key" ON "i18n_original" USING btree ("domain","key");--> statement-breakpoint
CREATE INDEX "i18n_original_node" ON "i18n_original" USING btree ("node_id","record_id");--> statement-breakpoint
CREATE INDEX "i18n_translation_language" ON "i18n_translation" USING btree ("language_code","updated_at");