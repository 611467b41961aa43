CREATE TABLE "iot_unmapped" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"config_id" integer NOT NULL,
	"iot_product_id" integer NOT NULL,
	"key" varchar(128) NOT NULL,
	"samples" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"devices" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"dismissed" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "iot_unmapped" ADD CONSTRAINT "iot_unmapped_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_unmapped" ADD CONSTRAINT "iot_unmapped_config_id_iot_config_id_fk" FOREIGN KEY ("config_id") REFERENCES "public"."iot_config"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_unmapped" ADD CONSTRAINT "iot_unmapped_iot_product_id_iot_product_id_fk" FOREIGN KEY ("iot_product_id") REFERENCES "public"."iot_product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "iot_unmapped_uq" ON "iot_unmapped" USING btree ("config_id","iot_product_id","key");