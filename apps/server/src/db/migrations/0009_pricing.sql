CREATE TABLE "price_cycle" (
	"id" serial PRIMARY KEY NOT NULL,
	"template_id" integer NOT NULL,
	"name" varchar(32) NOT NULL,
	"months" integer[] NOT NULL,
	"periods" jsonb NOT NULL,
	"tip_price" numeric(16, 6),
	"peak_price" numeric(16, 6),
	"flat_price" numeric(16, 6),
	"valley_price" numeric(16, 6),
	"deep_valley_price" numeric(16, 6),
	"demand_price" numeric(16, 6),
	"capacity_price" numeric(16, 6),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "price_template" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" varchar(64) NOT NULL,
	"type" varchar(32) NOT NULL,
	"billing_system" varchar(16) NOT NULL,
	"voltage_level" varchar(32) NOT NULL,
	"currency" varchar(8) NOT NULL,
	"region_code" varchar(12),
	"remark" varchar(200),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "price_template_company_name_uq" UNIQUE("company_id","name")
);
--> statement-breakpoint
CREATE TABLE "site_price_cycle" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"template_id" integer NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date,
	"service_fee" numeric(16, 6),
	"remark" varchar(200),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "solar_price_cycle" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date,
	"price" numeric(16, 6) NOT NULL,
	"period_prices" jsonb,
	"remark" varchar(200),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "price_cycle" ADD CONSTRAINT "price_cycle_template_id_price_template_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."price_template"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_template" ADD CONSTRAINT "price_template_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_price_cycle" ADD CONSTRAINT "site_price_cycle_site_id_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_price_cycle" ADD CONSTRAINT "site_price_cycle_template_id_price_template_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."price_template"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "solar_price_cycle" ADD CONSTRAINT "solar_price_cycle_site_id_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "price_cycle_template_idx" ON "price_cycle" USING btree ("template_id");--> statement-breakpoint
CREATE INDEX "site_price_cycle_site_idx" ON "site_price_cycle" USING btree ("site_id","start_date");--> statement-breakpoint
CREATE INDEX "site_price_cycle_template_idx" ON "site_price_cycle" USING btree ("template_id");--> statement-breakpoint
CREATE INDEX "solar_price_cycle_site_idx" ON "solar_price_cycle" USING btree ("site_id","start_date");