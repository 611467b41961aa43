CREATE TABLE "iot_command" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"config_id" integer NOT NULL,
	"iot_product_id" integer NOT NULL,
	"identifier" varchar(128) NOT NULL,
	"name" varchar(128) NOT NULL,
	"async" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "iot_config" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" varchar(64) NOT NULL,
	"platform" varchar(16) NOT NULL,
	"base_url" varchar(255) NOT NULL,
	"username" varchar(128) NOT NULL,
	"password_enc" text NOT NULL,
	"require_approval" boolean DEFAULT true NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"remark" varchar(200),
	"last_connect_at" timestamp with time zone,
	"last_connect_ok" boolean,
	"last_connect_reason" varchar(500),
	"last_sync_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "iot_device" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"config_id" integer NOT NULL,
	"iot_product_id" integer NOT NULL,
	"external_id" varchar(128) NOT NULL,
	"name" varchar(128) NOT NULL,
	"state" varchar(16) NOT NULL,
	"device_id" integer,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "iot_event" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"config_id" integer NOT NULL,
	"iot_product_id" integer NOT NULL,
	"identifier" varchar(128) NOT NULL,
	"name" varchar(128) NOT NULL,
	"level" varchar(32)
);
--> statement-breakpoint
CREATE TABLE "iot_param" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"config_id" integer NOT NULL,
	"iot_product_id" integer NOT NULL,
	"owner_kind" varchar(8) NOT NULL,
	"command_id" integer,
	"event_id" integer,
	"direction" varchar(8) NOT NULL,
	"identifier" varchar(128) NOT NULL,
	"name" varchar(128) NOT NULL,
	"data_type" varchar(16) NOT NULL,
	"unit" varchar(32)
);
--> statement-breakpoint
CREATE TABLE "iot_product" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"config_id" integer NOT NULL,
	"external_id" varchar(128) NOT NULL,
	"name" varchar(128) NOT NULL,
	"description" varchar(500),
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "iot_property" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"config_id" integer NOT NULL,
	"iot_product_id" integer NOT NULL,
	"identifier" varchar(128) NOT NULL,
	"name" varchar(128) NOT NULL,
	"data_type" varchar(16) NOT NULL,
	"unit" varchar(32),
	"source" varchar(16) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "iot_relate_command" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"config_id" integer NOT NULL,
	"iot_product_id" integer NOT NULL,
	"iot_device_id" integer,
	"product_id" integer NOT NULL,
	"identifier" varchar(64) NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"remark" varchar(200),
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"iot_command_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "iot_relate_event" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"config_id" integer NOT NULL,
	"iot_product_id" integer NOT NULL,
	"iot_device_id" integer,
	"product_id" integer NOT NULL,
	"identifier" varchar(64) NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"remark" varchar(200),
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"iot_event_id" integer NOT NULL,
	"value_map" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "iot_relate_param" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"relate_command_id" integer NOT NULL,
	"iot_param_id" integer NOT NULL,
	"identifier" varchar(64) NOT NULL,
	"scale" double precision DEFAULT 1 NOT NULL,
	"offset" double precision DEFAULT 0 NOT NULL,
	"value_map" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "iot_relate_property" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"config_id" integer NOT NULL,
	"iot_product_id" integer NOT NULL,
	"iot_device_id" integer,
	"product_id" integer NOT NULL,
	"identifier" varchar(64) NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"remark" varchar(200),
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"iot_property_id" integer NOT NULL,
	"scale" double precision DEFAULT 1 NOT NULL,
	"offset" double precision DEFAULT 0 NOT NULL,
	"value_map" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "iot_sync" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"config_id" integer NOT NULL,
	"scope" varchar(16) NOT NULL,
	"target" varchar(128),
	"state" varchar(16) NOT NULL,
	"items" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"snapshot" jsonb,
	"base_hash" varchar(64),
	"added" integer DEFAULT 0 NOT NULL,
	"changed" integer DEFAULT 0 NOT NULL,
	"removed" integer DEFAULT 0 NOT NULL,
	"error" varchar(500),
	"created_by" integer,
	"approved_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"applied_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "iot_command" ADD CONSTRAINT "iot_command_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_command" ADD CONSTRAINT "iot_command_config_id_iot_config_id_fk" FOREIGN KEY ("config_id") REFERENCES "public"."iot_config"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_command" ADD CONSTRAINT "iot_command_iot_product_id_iot_product_id_fk" FOREIGN KEY ("iot_product_id") REFERENCES "public"."iot_product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_config" ADD CONSTRAINT "iot_config_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_device" ADD CONSTRAINT "iot_device_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_device" ADD CONSTRAINT "iot_device_config_id_iot_config_id_fk" FOREIGN KEY ("config_id") REFERENCES "public"."iot_config"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_device" ADD CONSTRAINT "iot_device_iot_product_id_iot_product_id_fk" FOREIGN KEY ("iot_product_id") REFERENCES "public"."iot_product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_device" ADD CONSTRAINT "iot_device_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_event" ADD CONSTRAINT "iot_event_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_event" ADD CONSTRAINT "iot_event_config_id_iot_config_id_fk" FOREIGN KEY ("config_id") REFERENCES "public"."iot_config"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_event" ADD CONSTRAINT "iot_event_iot_product_id_iot_product_id_fk" FOREIGN KEY ("iot_product_id") REFERENCES "public"."iot_product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_param" ADD CONSTRAINT "iot_param_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_param" ADD CONSTRAINT "iot_param_config_id_iot_config_id_fk" FOREIGN KEY ("config_id") REFERENCES "public"."iot_config"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_param" ADD CONSTRAINT "iot_param_iot_product_id_iot_product_id_fk" FOREIGN KEY ("iot_product_id") REFERENCES "public"."iot_product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_param" ADD CONSTRAINT "iot_param_command_id_iot_command_id_fk" FOREIGN KEY ("command_id") REFERENCES "public"."iot_command"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_param" ADD CONSTRAINT "iot_param_event_id_iot_event_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."iot_event"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_product" ADD CONSTRAINT "iot_product_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_product" ADD CONSTRAINT "iot_product_config_id_iot_config_id_fk" FOREIGN KEY ("config_id") REFERENCES "public"."iot_config"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_property" ADD CONSTRAINT "iot_property_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_property" ADD CONSTRAINT "iot_property_config_id_iot_config_id_fk" FOREIGN KEY ("config_id") REFERENCES "public"."iot_config"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_property" ADD CONSTRAINT "iot_property_iot_product_id_iot_product_id_fk" FOREIGN KEY ("iot_product_id") REFERENCES "public"."iot_product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_relate_command" ADD CONSTRAINT "iot_relate_command_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_relate_command" ADD CONSTRAINT "iot_relate_command_config_id_iot_config_id_fk" FOREIGN KEY ("config_id") REFERENCES "public"."iot_config"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_relate_command" ADD CONSTRAINT "iot_relate_command_iot_product_id_iot_product_id_fk" FOREIGN KEY ("iot_product_id") REFERENCES "public"."iot_product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_relate_command" ADD CONSTRAINT "iot_relate_command_iot_device_id_iot_device_id_fk" FOREIGN KEY ("iot_device_id") REFERENCES "public"."iot_device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_relate_command" ADD CONSTRAINT "iot_relate_command_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_relate_command" ADD CONSTRAINT "iot_relate_command_iot_command_id_iot_command_id_fk" FOREIGN KEY ("iot_command_id") REFERENCES "public"."iot_command"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_relate_event" ADD CONSTRAINT "iot_relate_event_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_relate_event" ADD CONSTRAINT "iot_relate_event_config_id_iot_config_id_fk" FOREIGN KEY ("config_id") REFERENCES "public"."iot_config"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_relate_event" ADD CONSTRAINT "iot_relate_event_iot_product_id_iot_product_id_fk" FOREIGN KEY ("iot_product_id") REFERENCES "public"."iot_product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_relate_event" ADD CONSTRAINT "iot_relate_event_iot_device_id_iot_device_id_fk" FOREIGN KEY ("iot_device_id") REFERENCES "public"."iot_device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_relate_event" ADD CONSTRAINT "iot_relate_event_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_relate_event" ADD CONSTRAINT "iot_relate_event_iot_event_id_iot_event_id_fk" FOREIGN KEY ("iot_event_id") REFERENCES "public"."iot_event"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_relate_param" ADD CONSTRAINT "iot_relate_param_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_relate_param" ADD CONSTRAINT "iot_relate_param_relate_command_id_iot_relate_command_id_fk" FOREIGN KEY ("relate_command_id") REFERENCES "public"."iot_relate_command"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_relate_param" ADD CONSTRAINT "iot_relate_param_iot_param_id_iot_param_id_fk" FOREIGN KEY ("iot_param_id") REFERENCES "public"."iot_param"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_relate_property" ADD CONSTRAINT "iot_relate_property_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_relate_property" ADD CONSTRAINT "iot_relate_property_config_id_iot_config_id_fk" FOREIGN KEY ("config_id") REFERENCES "public"."iot_config"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_relate_property" ADD CONSTRAINT "iot_relate_property_iot_product_id_iot_product_id_fk" FOREIGN KEY ("iot_product_id") REFERENCES "public"."iot_product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_relate_property" ADD CONSTRAINT "iot_relate_property_iot_device_id_iot_device_id_fk" FOREIGN KEY ("iot_device_id") REFERENCES "public"."iot_device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_relate_property" ADD CONSTRAINT "iot_relate_property_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_relate_property" ADD CONSTRAINT "iot_relate_property_iot_property_id_iot_property_id_fk" FOREIGN KEY ("iot_property_id") REFERENCES "public"."iot_property"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_sync" ADD CONSTRAINT "iot_sync_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_sync" ADD CONSTRAINT "iot_sync_config_id_iot_config_id_fk" FOREIGN KEY ("config_id") REFERENCES "public"."iot_config"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "iot_command_uq" ON "iot_command" USING btree ("iot_product_id","identifier");--> statement-breakpoint
CREATE UNIQUE INDEX "iot_config_company_name_uq" ON "iot_config" USING btree ("company_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "iot_device_uq" ON "iot_device" USING btree ("config_id","external_id");--> statement-breakpoint
CREATE INDEX "iot_device_product_idx" ON "iot_device" USING btree ("iot_product_id");--> statement-breakpoint
CREATE INDEX "iot_device_device_idx" ON "iot_device" USING btree ("device_id");--> statement-breakpoint
CREATE UNIQUE INDEX "iot_event_uq" ON "iot_event" USING btree ("iot_product_id","identifier");--> statement-breakpoint
CREATE UNIQUE INDEX "iot_param_uq" ON "iot_param" USING btree ("iot_product_id","owner_kind",coalesce("command_id", "event_id"),"direction","identifier");--> statement-breakpoint
CREATE UNIQUE INDEX "iot_product_uq" ON "iot_product" USING btree ("config_id","external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "iot_property_uq" ON "iot_property" USING btree ("iot_product_id","identifier");--> statement-breakpoint
CREATE UNIQUE INDEX "iot_relate_command_item_uq" ON "iot_relate_command" USING btree ("iot_product_id",coalesce("iot_device_id", 0),"iot_command_id");--> statement-breakpoint
CREATE UNIQUE INDEX "iot_relate_command_target_uq" ON "iot_relate_command" USING btree ("iot_product_id",coalesce("iot_device_id", 0),"identifier");--> statement-breakpoint
CREATE UNIQUE INDEX "iot_relate_event_item_uq" ON "iot_relate_event" USING btree ("iot_product_id",coalesce("iot_device_id", 0),"iot_event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "iot_relate_event_target_uq" ON "iot_relate_event" USING btree ("iot_product_id",coalesce("iot_device_id", 0),"identifier");--> statement-breakpoint
CREATE UNIQUE INDEX "iot_relate_param_uq" ON "iot_relate_param" USING btree ("relate_command_id","iot_param_id");--> statement-breakpoint
CREATE UNIQUE INDEX "iot_relate_param_target_uq" ON "iot_relate_param" USING btree ("relate_command_id","identifier");--> statement-breakpoint
CREATE UNIQUE INDEX "iot_relate_property_item_uq" ON "iot_relate_property" USING btree ("iot_product_id",coalesce("iot_device_id", 0),"iot_property_id");--> statement-breakpoint
CREATE UNIQUE INDEX "iot_relate_property_target_uq" ON "iot_relate_property" USING btree ("iot_product_id",coalesce("iot_device_id", 0),"identifier");--> statement-breakpoint
CREATE INDEX "iot_sync_config_idx" ON "iot_sync" USING btree ("config_id","created_at");