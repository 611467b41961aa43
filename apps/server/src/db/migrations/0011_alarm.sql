CREATE TABLE "alarm" (
	"id" serial PRIMARY KEY NOT NULL,
	"no" varchar(32) NOT NULL,
	"dict_id" integer,
	"device_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"cabinet_id" integer,
	"kind" varchar(16) NOT NULL,
	"code" varchar(64) NOT NULL,
	"level" smallint NOT NULL,
	"alarm_type" varchar(32) NOT NULL,
	"description" varchar(200) NOT NULL,
	"status" varchar(16) DEFAULT 'active' NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"trigger_value" double precision,
	"clear_value" double precision,
	"message" varchar(500),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alarm_no_unique" UNIQUE("no")
);
--> statement-breakpoint
CREATE TABLE "alarm_dict" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer,
	"device_type" varchar(32),
	"kind" varchar(16) NOT NULL,
	"event_code" varchar(64),
	"identifier" varchar(64),
	"operator" varchar(2),
	"threshold" double precision,
	"clear_value" double precision,
	"level" smallint NOT NULL,
	"alarm_type" varchar(32) NOT NULL,
	"description" varchar(200) NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alarm_shield" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"dict_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"cancelled_at" timestamp with time zone,
	"cancelled_by" integer,
	"remark" varchar(200),
	"alarm_id" integer,
	"created_by" integer,
	"created_by_name" varchar(64) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alarm" ADD CONSTRAINT "alarm_dict_id_alarm_dict_id_fk" FOREIGN KEY ("dict_id") REFERENCES "public"."alarm_dict"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm" ADD CONSTRAINT "alarm_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm" ADD CONSTRAINT "alarm_site_id_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."site"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm" ADD CONSTRAINT "alarm_cabinet_id_cabinet_id_fk" FOREIGN KEY ("cabinet_id") REFERENCES "public"."cabinet"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_dict" ADD CONSTRAINT "alarm_dict_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_shield" ADD CONSTRAINT "alarm_shield_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_shield" ADD CONSTRAINT "alarm_shield_dict_id_alarm_dict_id_fk" FOREIGN KEY ("dict_id") REFERENCES "public"."alarm_dict"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_shield" ADD CONSTRAINT "alarm_shield_site_id_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."site"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_shield" ADD CONSTRAINT "alarm_shield_cancelled_by_app_user_id_fk" FOREIGN KEY ("cancelled_by") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_shield" ADD CONSTRAINT "alarm_shield_created_by_app_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alarm_open_source_uq" ON "alarm" USING btree ("device_id","dict_id") WHERE "alarm"."status" = 'active';--> statement-breakpoint
CREATE INDEX "alarm_site_started_idx" ON "alarm" USING btree ("site_id","started_at");--> statement-breakpoint
CREATE INDEX "alarm_started_idx" ON "alarm" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "alarm_device_idx" ON "alarm" USING btree ("device_id","started_at");--> statement-breakpoint
CREATE INDEX "alarm_active_idx" ON "alarm" USING btree ("site_id") WHERE "alarm"."status" = 'active';--> statement-breakpoint
CREATE UNIQUE INDEX "alarm_dict_event_uq" ON "alarm_dict" USING btree (coalesce("product_id", 0),coalesce("device_type", ''),"event_code") WHERE "alarm_dict"."kind" = 'event';--> statement-breakpoint
CREATE UNIQUE INDEX "alarm_dict_threshold_uq" ON "alarm_dict" USING btree (coalesce("product_id", 0),coalesce("device_type", ''),"identifier","operator") WHERE "alarm_dict"."kind" = 'threshold';--> statement-breakpoint
CREATE INDEX "alarm_shield_source_idx" ON "alarm_shield" USING btree ("device_id","dict_id","end_at");--> statement-breakpoint
CREATE INDEX "alarm_shield_site_idx" ON "alarm_shield" USING btree ("site_id");