CREATE TABLE "device_static_value" (
	"device_id" integer NOT NULL,
	"property_id" integer NOT NULL,
	"value" varchar(256) NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_static_property" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"identifier" varchar(64) NOT NULL,
	"name" varchar(64) NOT NULL,
	"data_type" varchar(16) NOT NULL,
	"unit" varchar(16) DEFAULT '' NOT NULL,
	"enum_values" jsonb,
	"required" boolean DEFAULT false NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_template" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(64) NOT NULL,
	"product_id" integer NOT NULL,
	"identifiers" jsonb NOT NULL,
	"description" varchar(500),
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "product" ADD COLUMN "slot_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "device_static_value" ADD CONSTRAINT "device_static_value_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_static_value" ADD CONSTRAINT "device_static_value_property_id_product_static_property_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."product_static_property"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_static_property" ADD CONSTRAINT "product_static_property_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_template" ADD CONSTRAINT "product_template_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "device_static_value_pk" ON "device_static_value" USING btree ("device_id","property_id");--> statement-breakpoint
CREATE INDEX "device_static_value_property_idx" ON "device_static_value" USING btree ("property_id");--> statement-breakpoint
CREATE UNIQUE INDEX "product_static_property_uq" ON "product_static_property" USING btree ("product_id","identifier");--> statement-breakpoint
CREATE UNIQUE INDEX "product_template_name_uq" ON "product_template" USING btree ("name");--> statement-breakpoint
CREATE INDEX "product_template_product_idx" ON "product_template" USING btree ("product_id");--> statement-breakpoint
UPDATE "product" SET "slot_count" = coalesce((SELECT max("slot") FROM "product_property" WHERE "product_property"."product_id" = "product"."id"), 0);
