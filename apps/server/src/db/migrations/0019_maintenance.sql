CREATE TABLE "inspection_defect" (
	"id" serial PRIMARY KEY NOT NULL,
	"no" varchar(32) NOT NULL,
	"site_id" integer NOT NULL,
	"device_id" integer,
	"level" smallint NOT NULL,
	"description" varchar(500) NOT NULL,
	"photos" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" varchar(16) DEFAULT 'open' NOT NULL,
	"work_order_id" integer,
	"work_order_item_id" integer,
	"repair_order_id" integer,
	"found_at" timestamp with time zone DEFAULT now() NOT NULL,
	"found_by" integer,
	"found_by_name" varchar(64) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inspection_defect_no_unique" UNIQUE("no")
);
--> statement-breakpoint
CREATE TABLE "inspection_item" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" varchar(64) NOT NULL,
	"device_type" varchar(32),
	"product_id" integer,
	"check_type" varchar(16) NOT NULL,
	"unit" varchar(16),
	"min_value" double precision,
	"max_value" double precision,
	"standard" varchar(200),
	"remark" varchar(200),
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inspection_plan" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" varchar(64) NOT NULL,
	"status" varchar(16) DEFAULT 'stopped' NOT NULL,
	"stop_reason" varchar(16),
	"schedule" jsonb NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date,
	"count_from" varchar(16) DEFAULT 'schedule' NOT NULL,
	"assignee_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"owner_id" integer,
	"remark" varchar(200),
	"last_generated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inspection_plan_item" (
	"plan_id" integer NOT NULL,
	"item_id" integer NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "inspection_plan_item_plan_id_item_id_pk" PRIMARY KEY("plan_id","item_id")
);
--> statement-breakpoint
CREATE TABLE "inspection_plan_site" (
	"plan_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"last_due_date" date,
	"last_generated_at" timestamp with time zone,
	CONSTRAINT "inspection_plan_site_plan_id_site_id_pk" PRIMARY KEY("plan_id","site_id")
);
--> statement-breakpoint
CREATE TABLE "inspection_work_order" (
	"id" serial PRIMARY KEY NOT NULL,
	"no" varchar(32) NOT NULL,
	"site_id" integer NOT NULL,
	"plan_id" integer,
	"origin" varchar(16) NOT NULL,
	"title" varchar(64) NOT NULL,
	"status" varchar(16) DEFAULT 'toBeAssigned' NOT NULL,
	"scheduled_date" date NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"assignee_id" integer,
	"assignee_name" varchar(64),
	"opened_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"note" varchar(200),
	"created_by" integer,
	"created_by_name" varchar(64) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inspection_work_order_no_unique" UNIQUE("no")
);
--> statement-breakpoint
CREATE TABLE "inspection_work_order_item" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"item_id" integer,
	"sort" integer DEFAULT 0 NOT NULL,
	"name" varchar(64) NOT NULL,
	"check_type" varchar(16) NOT NULL,
	"device_type" varchar(32),
	"unit" varchar(16),
	"min_value" double precision,
	"max_value" double precision,
	"standard" varchar(200),
	"device_id" integer,
	"result" varchar(8),
	"value" double precision,
	"text" varchar(500),
	"photos" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"out_of_range" boolean DEFAULT false NOT NULL,
	"defect_id" integer,
	"checked_at" timestamp with time zone,
	"checked_by" integer
);
--> statement-breakpoint
CREATE TABLE "maintenance_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"entity" varchar(16) NOT NULL,
	"entity_id" integer NOT NULL,
	"action" varchar(32) NOT NULL,
	"from_state" varchar(16) NOT NULL,
	"to_state" varchar(16) NOT NULL,
	"note" varchar(200),
	"user_id" integer,
	"username" varchar(64) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "repair_auto_rule" (
	"company_id" integer PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"max_level" smallint DEFAULT 2 NOT NULL,
	"open_minutes" integer DEFAULT 10 NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "repair_order" (
	"id" serial PRIMARY KEY NOT NULL,
	"no" varchar(32) NOT NULL,
	"site_id" integer NOT NULL,
	"device_id" integer,
	"level" smallint NOT NULL,
	"title" varchar(64) NOT NULL,
	"description" varchar(500),
	"source" varchar(16) NOT NULL,
	"status" varchar(16) DEFAULT 'toBeDispatched' NOT NULL,
	"defect_id" integer,
	"alarm_id" integer,
	"alarm_started_at" timestamp with time zone,
	"telemetry_snapshot" jsonb,
	"photos" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"assignee_id" integer,
	"assignee_name" varchar(64),
	"due_at" timestamp with time zone,
	"dispatched_at" timestamp with time zone,
	"accepted_at" timestamp with time zone,
	"check_in_at" timestamp with time zone,
	"check_in_longitude" double precision,
	"check_in_latitude" double precision,
	"check_in_address" varchar(256),
	"work_start_at" timestamp with time zone,
	"work_end_at" timestamp with time zone,
	"work_done" varchar(500),
	"parts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"handle_photos" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"completed_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"reject_count" integer DEFAULT 0 NOT NULL,
	"last_reject_reason" varchar(200),
	"source_action" varchar(8),
	"note" varchar(200),
	"created_by" integer,
	"created_by_name" varchar(64) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "repair_order_no_unique" UNIQUE("no")
);
--> statement-breakpoint
ALTER TABLE "inspection_defect" ADD CONSTRAINT "inspection_defect_site_id_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspection_defect" ADD CONSTRAINT "inspection_defect_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspection_defect" ADD CONSTRAINT "inspection_defect_work_order_id_inspection_work_order_id_fk" FOREIGN KEY ("work_order_id") REFERENCES "public"."inspection_work_order"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspection_defect" ADD CONSTRAINT "inspection_defect_work_order_item_id_inspection_work_order_item_id_fk" FOREIGN KEY ("work_order_item_id") REFERENCES "public"."inspection_work_order_item"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspection_item" ADD CONSTRAINT "inspection_item_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspection_item" ADD CONSTRAINT "inspection_item_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspection_plan" ADD CONSTRAINT "inspection_plan_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspection_plan" ADD CONSTRAINT "inspection_plan_owner_id_app_user_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspection_plan_item" ADD CONSTRAINT "inspection_plan_item_plan_id_inspection_plan_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."inspection_plan"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspection_plan_item" ADD CONSTRAINT "inspection_plan_item_item_id_inspection_item_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."inspection_item"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspection_plan_site" ADD CONSTRAINT "inspection_plan_site_plan_id_inspection_plan_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."inspection_plan"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspection_plan_site" ADD CONSTRAINT "inspection_plan_site_site_id_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspection_work_order" ADD CONSTRAINT "inspection_work_order_site_id_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspection_work_order" ADD CONSTRAINT "inspection_work_order_plan_id_inspection_plan_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."inspection_plan"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspection_work_order" ADD CONSTRAINT "inspection_work_order_assignee_id_app_user_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspection_work_order_item" ADD CONSTRAINT "inspection_work_order_item_order_id_inspection_work_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."inspection_work_order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspection_work_order_item" ADD CONSTRAINT "inspection_work_order_item_item_id_inspection_item_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."inspection_item"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspection_work_order_item" ADD CONSTRAINT "inspection_work_order_item_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repair_auto_rule" ADD CONSTRAINT "repair_auto_rule_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repair_order" ADD CONSTRAINT "repair_order_site_id_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repair_order" ADD CONSTRAINT "repair_order_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repair_order" ADD CONSTRAINT "repair_order_defect_id_inspection_defect_id_fk" FOREIGN KEY ("defect_id") REFERENCES "public"."inspection_defect"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repair_order" ADD CONSTRAINT "repair_order_alarm_id_alarm_id_fk" FOREIGN KEY ("alarm_id") REFERENCES "public"."alarm"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repair_order" ADD CONSTRAINT "repair_order_assignee_id_app_user_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inspection_defect_site_idx" ON "inspection_defect" USING btree ("site_id","found_at");--> statement-breakpoint
CREATE INDEX "inspection_defect_device_idx" ON "inspection_defect" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "inspection_defect_order_idx" ON "inspection_defect" USING btree ("work_order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "inspection_defect_result_uq" ON "inspection_defect" USING btree ("work_order_item_id") WHERE "inspection_defect"."work_order_item_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "inspection_item_name_uq" ON "inspection_item" USING btree ("company_id",lower("name"));--> statement-breakpoint
CREATE INDEX "inspection_plan_company_idx" ON "inspection_plan" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "inspection_plan_active_idx" ON "inspection_plan" USING btree ("status") WHERE "inspection_plan"."status" <> 'stopped';--> statement-breakpoint
CREATE INDEX "inspection_plan_item_item_idx" ON "inspection_plan_item" USING btree ("item_id");--> statement-breakpoint
CREATE INDEX "inspection_plan_site_site_idx" ON "inspection_plan_site" USING btree ("site_id");--> statement-breakpoint
CREATE UNIQUE INDEX "inspection_work_order_slot_uq" ON "inspection_work_order" USING btree ("plan_id","site_id","scheduled_date") WHERE "inspection_work_order"."plan_id" is not null;--> statement-breakpoint
CREATE INDEX "inspection_work_order_site_due_idx" ON "inspection_work_order" USING btree ("site_id","due_at");--> statement-breakpoint
CREATE INDEX "inspection_work_order_assignee_idx" ON "inspection_work_order" USING btree ("assignee_id","status");--> statement-breakpoint
CREATE INDEX "inspection_work_order_plan_idx" ON "inspection_work_order" USING btree ("plan_id","created_at");--> statement-breakpoint
CREATE INDEX "inspection_work_order_open_idx" ON "inspection_work_order" USING btree ("due_at") WHERE "inspection_work_order"."status" in ('toBeAssigned', 'pending', 'processing');--> statement-breakpoint
CREATE INDEX "inspection_work_order_item_order_idx" ON "inspection_work_order_item" USING btree ("order_id","sort");--> statement-breakpoint
CREATE INDEX "maintenance_log_entity_idx" ON "maintenance_log" USING btree ("entity","entity_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "repair_order_alarm_uq" ON "repair_order" USING btree ("alarm_id") WHERE "repair_order"."alarm_id" is not null;--> statement-breakpoint
CREATE INDEX "repair_order_site_idx" ON "repair_order" USING btree ("site_id","created_at");--> statement-breakpoint
CREATE INDEX "repair_order_device_idx" ON "repair_order" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "repair_order_assignee_idx" ON "repair_order" USING btree ("assignee_id","status");--> statement-breakpoint
CREATE INDEX "repair_order_defect_idx" ON "repair_order" USING btree ("defect_id");