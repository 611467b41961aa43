CREATE TABLE "callback_exec" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" varchar(64) NOT NULL,
	"company_id" integer NOT NULL,
	"site_id" integer,
	"user_id" integer,
	"username" varchar(64),
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"success" boolean NOT NULL,
	"result" jsonb,
	"error" varchar(500),
	"duration_ms" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "distribution_diagram" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"file_name" varchar(256) NOT NULL,
	"svg" text NOT NULL,
	"bindings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"uploaded_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "distribution_diagram_site_id_unique" UNIQUE("site_id")
);
--> statement-breakpoint
CREATE TABLE "site_key_value" (
	"site_id" integer PRIMARY KEY NOT NULL,
	"installed_capacity" double precision,
	"voltage_level" double precision,
	"transformer_protection_power" double precision,
	"installed_power" double precision,
	"depth_of_discharge" double precision,
	"pv_module_count" integer,
	"pv_working_mode" varchar(16),
	"pile_power" double precision,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "site" ADD COLUMN "email" varchar(128);--> statement-breakpoint
ALTER TABLE "site" ADD COLUMN "project_no" varchar(64);--> statement-breakpoint
ALTER TABLE "site" ADD COLUMN "project_name" varchar(128);--> statement-breakpoint
ALTER TABLE "site" ADD COLUMN "investor" varchar(128);--> statement-breakpoint
ALTER TABLE "site" ADD COLUMN "power_user" varchar(128);--> statement-breakpoint
ALTER TABLE "site" ADD COLUMN "reconciliation_contact" varchar(64);--> statement-breakpoint
ALTER TABLE "site" ADD COLUMN "reconciliation_phone" varchar(32);--> statement-breakpoint
ALTER TABLE "site" ADD COLUMN "investor_share_ratio" numeric(5, 2);--> statement-breakpoint
ALTER TABLE "site" ADD COLUMN "remark" varchar(500);--> statement-breakpoint
ALTER TABLE "callback_exec" ADD CONSTRAINT "callback_exec_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "callback_exec" ADD CONSTRAINT "callback_exec_site_id_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."site"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "distribution_diagram" ADD CONSTRAINT "distribution_diagram_site_id_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_key_value" ADD CONSTRAINT "site_key_value_site_id_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "callback_exec_company_idx" ON "callback_exec" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "callback_exec_code_idx" ON "callback_exec" USING btree ("code");