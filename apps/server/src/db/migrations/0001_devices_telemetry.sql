CREATE TABLE "cabinet" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"code" varchar(64) NOT NULL,
	"name" varchar(64) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cabinet_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "device" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" varchar(64) NOT NULL,
	"name" varchar(64) NOT NULL,
	"barcode" varchar(64),
	"site_id" integer NOT NULL,
	"parent_id" integer,
	"product_id" integer NOT NULL,
	"type" varchar(32) NOT NULL,
	"meter_purpose" varchar(16),
	"cabinet_id" integer,
	"rated_power" double precision,
	"no" smallint,
	"sub_no" smallint,
	"firmware_name" varchar(64),
	"firmware_version" varchar(32),
	"disabled" boolean DEFAULT false NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "device_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "product" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" varchar(64) NOT NULL,
	"name" varchar(64) NOT NULL,
	"type" varchar(32) NOT NULL,
	"description" varchar(500),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "product_command" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"identifier" varchar(64) NOT NULL,
	"name" varchar(64) NOT NULL,
	"request_params" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"response_params" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_event" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"identifier" varchar(64) NOT NULL,
	"name" varchar(64) NOT NULL,
	"level" smallint DEFAULT 3 NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_property" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"identifier" varchar(64) NOT NULL,
	"name" varchar(64) NOT NULL,
	"data_type" varchar(16) NOT NULL,
	"unit" varchar(16) DEFAULT '' NOT NULL,
	"enum_values" jsonb,
	"cumulative" boolean DEFAULT false NOT NULL,
	"writable" boolean DEFAULT false NOT NULL,
	"min" double precision,
	"max" double precision,
	"sort" integer DEFAULT 0 NOT NULL,
	"slot" integer
);
--> statement-breakpoint
CREATE TABLE "device_event" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"code" varchar(64) NOT NULL,
	"active" boolean NOT NULL,
	"message" varchar(500) DEFAULT '' NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_latest" (
	"device_id" integer PRIMARY KEY NOT NULL,
	"ts" timestamp with time zone,
	"seq" integer,
	"values" jsonb,
	"last_seen_at" timestamp with time zone,
	"offline_at" timestamp with time zone,
	"interval_ms" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "telemetry" (
	"device_id" integer NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"seq" integer,
	"v" double precision[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "telemetry_1d" (
	"device_id" integer NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"cnt" integer[] NOT NULL,
	"sum" double precision[] NOT NULL,
	"min" double precision[] NOT NULL,
	"max" double precision[] NOT NULL,
	"first_ts" timestamp with time zone NOT NULL,
	"first" double precision[] NOT NULL,
	"last_ts" timestamp with time zone NOT NULL,
	"last" double precision[] NOT NULL,
	CONSTRAINT "telemetry_1d_device_id_bucket_pk" PRIMARY KEY("device_id","bucket")
);
--> statement-breakpoint
CREATE TABLE "telemetry_1h" (
	"device_id" integer NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"cnt" integer[] NOT NULL,
	"sum" double precision[] NOT NULL,
	"min" double precision[] NOT NULL,
	"max" double precision[] NOT NULL,
	"first_ts" timestamp with time zone NOT NULL,
	"first" double precision[] NOT NULL,
	"last_ts" timestamp with time zone NOT NULL,
	"last" double precision[] NOT NULL,
	CONSTRAINT "telemetry_1h_device_id_bucket_pk" PRIMARY KEY("device_id","bucket")
);
--> statement-breakpoint
CREATE TABLE "telemetry_5m" (
	"device_id" integer NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"cnt" integer[] NOT NULL,
	"sum" double precision[] NOT NULL,
	"min" double precision[] NOT NULL,
	"max" double precision[] NOT NULL,
	"first_ts" timestamp with time zone NOT NULL,
	"first" double precision[] NOT NULL,
	"last_ts" timestamp with time zone NOT NULL,
	"last" double precision[] NOT NULL,
	CONSTRAINT "telemetry_5m_device_id_bucket_pk" PRIMARY KEY("device_id","bucket")
);
--> statement-breakpoint
ALTER TABLE "cabinet" ADD CONSTRAINT "cabinet_site_id_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device" ADD CONSTRAINT "device_site_id_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."site"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device" ADD CONSTRAINT "device_parent_id_device_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."device"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device" ADD CONSTRAINT "device_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device" ADD CONSTRAINT "device_cabinet_id_cabinet_id_fk" FOREIGN KEY ("cabinet_id") REFERENCES "public"."cabinet"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_command" ADD CONSTRAINT "product_command_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_event" ADD CONSTRAINT "product_event_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_property" ADD CONSTRAINT "product_property_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_event" ADD CONSTRAINT "device_event_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_latest" ADD CONSTRAINT "device_latest_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cabinet_site_idx" ON "cabinet" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "device_site_idx" ON "device" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "device_parent_idx" ON "device" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "device_product_idx" ON "device" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "device_cabinet_idx" ON "device" USING btree ("cabinet_id");--> statement-breakpoint
CREATE UNIQUE INDEX "product_command_uq" ON "product_command" USING btree ("product_id","identifier");--> statement-breakpoint
CREATE UNIQUE INDEX "product_event_uq" ON "product_event" USING btree ("product_id","identifier");--> statement-breakpoint
CREATE UNIQUE INDEX "product_property_uq" ON "product_property" USING btree ("product_id","identifier");--> statement-breakpoint
CREATE INDEX "device_event_device_ts_idx" ON "device_event" USING btree ("device_id","ts");--> statement-breakpoint
CREATE INDEX "device_event_ts_idx" ON "device_event" USING btree ("ts");--> statement-breakpoint
CREATE INDEX "telemetry_ts_brin" ON "telemetry" USING brin ("ts");--> statement-breakpoint
CREATE INDEX "telemetry_device_ts_idx" ON "telemetry" USING btree ("device_id","ts");