CREATE TABLE "device_change" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"old_code" varchar(64) NOT NULL,
	"new_code" varchar(64) NOT NULL,
	"old_barcode" varchar(64),
	"new_barcode" varchar(64),
	"old_name" varchar(64) NOT NULL,
	"new_name" varchar(64) NOT NULL,
	"old_firmware_version" varchar(32),
	"new_firmware_version" varchar(32),
	"reason" varchar(200),
	"user_id" integer NOT NULL,
	"username" varchar(64) NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_import" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"username" varchar(64) NOT NULL,
	"kind" varchar(16) NOT NULL,
	"file_name" varchar(256) NOT NULL,
	"status" varchar(16) NOT NULL,
	"total_rows" integer DEFAULT 0 NOT NULL,
	"created_count" integer DEFAULT 0 NOT NULL,
	"updated_count" integer DEFAULT 0 NOT NULL,
	"error_count" integer DEFAULT 0 NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"site_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"duration_ms" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_change" ADD CONSTRAINT "device_change_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_change" ADD CONSTRAINT "device_change_site_id_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_change_device_idx" ON "device_change" USING btree ("device_id","changed_at");--> statement-breakpoint
CREATE INDEX "device_change_site_idx" ON "device_change" USING btree ("site_id","changed_at");--> statement-breakpoint
CREATE INDEX "device_import_company_idx" ON "device_import" USING btree ("company_id","created_at");