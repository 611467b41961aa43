CREATE TABLE "site_statement_setting" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"investor_name" varchar(128) NOT NULL,
	"investor_user_id" integer NOT NULL,
	"power_user_name" varchar(128) NOT NULL,
	"power_user_user_id" integer NOT NULL,
	"investor_share_ratio" numeric(5, 2) NOT NULL,
	"billing_day" smallint NOT NULL,
	"reconciliation_contact" varchar(64),
	"reconciliation_phone" varchar(32),
	"include_pv" boolean DEFAULT false NOT NULL,
	"include_piles" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "site_statement_setting_site_id_unique" UNIQUE("site_id")
);
--> statement-breakpoint
CREATE TABLE "statement" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" varchar(64) NOT NULL,
	"site_id" integer NOT NULL,
	"month" varchar(7) NOT NULL,
	"period_start" date NOT NULL,
	"period_end" date NOT NULL,
	"currency" varchar(8) NOT NULL,
	"state" varchar(24) DEFAULT 'draft' NOT NULL,
	"investor_name" varchar(128) NOT NULL,
	"investor_user_id" integer NOT NULL,
	"power_user_name" varchar(128) NOT NULL,
	"power_user_user_id" integer NOT NULL,
	"investor_share_ratio" numeric(5, 2) NOT NULL,
	"reconciliation_contact" varchar(64),
	"reconciliation_phone" varchar(32),
	"charge_energy" numeric(18, 3) NOT NULL,
	"discharge_energy" numeric(18, 3) NOT NULL,
	"pv_self_use_energy" numeric(18, 3) NOT NULL,
	"pv_export_energy" numeric(18, 3) NOT NULL,
	"pile_energy" numeric(18, 3) NOT NULL,
	"storage_revenue" numeric(18, 2) NOT NULL,
	"pv_revenue" numeric(18, 2) NOT NULL,
	"pile_revenue" numeric(18, 2) NOT NULL,
	"total_revenue" numeric(18, 2) NOT NULL,
	"investor_amount" numeric(18, 2) NOT NULL,
	"power_user_amount" numeric(18, 2) NOT NULL,
	"flagged_lines" integer DEFAULT 0 NOT NULL,
	"lines" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"note" varchar(200),
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "statement_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"statement_id" integer NOT NULL,
	"action" varchar(32) NOT NULL,
	"from_state" varchar(24) NOT NULL,
	"to_state" varchar(24) NOT NULL,
	"note" varchar(200),
	"user_id" integer,
	"username" varchar(64) NOT NULL,
	"difference" numeric(18, 2),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "statement_price_use" (
	"statement_id" integer NOT NULL,
	"kind" varchar(16) NOT NULL,
	"ref_id" integer NOT NULL,
	"first_date" date NOT NULL,
	"last_date" date NOT NULL,
	CONSTRAINT "statement_price_use_statement_id_kind_ref_id_pk" PRIMARY KEY("statement_id","kind","ref_id")
);
--> statement-breakpoint
ALTER TABLE "site_statement_setting" ADD CONSTRAINT "site_statement_setting_site_id_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement" ADD CONSTRAINT "statement_site_id_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_log" ADD CONSTRAINT "statement_log_statement_id_statement_id_fk" FOREIGN KEY ("statement_id") REFERENCES "public"."statement"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_price_use" ADD CONSTRAINT "statement_price_use_statement_id_statement_id_fk" FOREIGN KEY ("statement_id") REFERENCES "public"."statement"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "statement_site_month_uq" ON "statement" USING btree ("site_id","month");--> statement-breakpoint
CREATE INDEX "statement_state_idx" ON "statement" USING btree ("state");--> statement-breakpoint
CREATE INDEX "statement_log_statement_idx" ON "statement_log" USING btree ("statement_id","id");--> statement-breakpoint
CREATE INDEX "statement_price_use_ref_idx" ON "statement_price_use" USING btree ("kind","ref_id");