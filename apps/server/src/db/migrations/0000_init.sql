CREATE TABLE "access_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"request_id" varchar(64),
	"user_id" integer,
	"company_id" integer,
	"username" varchar(64),
	"method" varchar(8) NOT NULL,
	"path" varchar(256) NOT NULL,
	"query" text,
	"status" smallint NOT NULL,
	"duration_ms" integer NOT NULL,
	"ip" varchar(64),
	"user_agent" varchar(256),
	"error_code" varchar(8),
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_interface" (
	"id" serial PRIMARY KEY NOT NULL,
	"method" varchar(8) NOT NULL,
	"path" varchar(256) NOT NULL,
	"area" varchar(64) NOT NULL,
	"kind" varchar(16) NOT NULL,
	"access" varchar(8) NOT NULL,
	"name" varchar(128) DEFAULT '' NOT NULL,
	CONSTRAINT "api_interface_path_unique" UNIQUE("path")
);
--> statement-breakpoint
CREATE TABLE "app_user" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"username" varchar(32) NOT NULL,
	"name" varchar(64) NOT NULL,
	"phone" varchar(32),
	"email" varchar(128),
	"password_hash" text NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"build_in" boolean DEFAULT false NOT NULL,
	"failed_count" integer DEFAULT 0 NOT NULL,
	"failed_since" timestamp with time zone,
	"locked_until" timestamp with time zone,
	"last_login_at" timestamp with time zone,
	"password_changed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "captcha" (
	"id" varchar(64) PRIMARY KEY NOT NULL,
	"code" varchar(16) NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "company" (
	"id" serial PRIMARY KEY NOT NULL,
	"parent_id" integer,
	"path" text DEFAULT '' NOT NULL,
	"name" varchar(64) NOT NULL,
	"code" varchar(32),
	"contact" varchar(64),
	"phone" varchar(32),
	"email" varchar(128),
	"region_code" varchar(12),
	"address" varchar(256),
	"remark" varchar(500),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"company_id" integer,
	"username" varchar(64) NOT NULL,
	"ip" varchar(64),
	"user_agent" varchar(256),
	"success" boolean NOT NULL,
	"reason" varchar(128),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "menu" (
	"id" serial PRIMARY KEY NOT NULL,
	"path" varchar(128) NOT NULL,
	"parent_path" varchar(128),
	"name" varchar(64) NOT NULL,
	"icon" varchar(64),
	"sort" integer DEFAULT 0 NOT NULL,
	"hidden" boolean DEFAULT false NOT NULL,
	"edited" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "menu_path_unique" UNIQUE("path")
);
--> statement-breakpoint
CREATE TABLE "menu_interface" (
	"menu_id" integer NOT NULL,
	"interface_id" integer NOT NULL,
	CONSTRAINT "menu_interface_menu_id_interface_id_pk" PRIMARY KEY("menu_id","interface_id")
);
--> statement-breakpoint
CREATE TABLE "notification" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"setting_id" integer,
	"title" varchar(100) NOT NULL,
	"content" text NOT NULL,
	"read" boolean DEFAULT false NOT NULL,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"setting_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"title" varchar(100) NOT NULL,
	"recipient_count" integer NOT NULL,
	"status" varchar(16) NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_setting" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"title" varchar(100) NOT NULL,
	"content" text NOT NULL,
	"push_mode" varchar(16) NOT NULL,
	"push_at" timestamp with time zone,
	"target_type" varchar(8) NOT NULL,
	"target_ids" integer[] NOT NULL,
	"status" varchar(16) DEFAULT 'pending' NOT NULL,
	"created_by" integer NOT NULL,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "role" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" varchar(64) NOT NULL,
	"code" varchar(64),
	"remark" varchar(500),
	"build_in" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "role_interface" (
	"role_id" integer NOT NULL,
	"interface_id" integer NOT NULL,
	CONSTRAINT "role_interface_role_id_interface_id_pk" PRIMARY KEY("role_id","interface_id")
);
--> statement-breakpoint
CREATE TABLE "role_menu" (
	"role_id" integer NOT NULL,
	"menu_id" integer NOT NULL,
	CONSTRAINT "role_menu_role_id_menu_id_pk" PRIMARY KEY("role_id","menu_id")
);
--> statement-breakpoint
CREATE TABLE "session" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"token_hash" varchar(64) NOT NULL,
	"user_id" integer NOT NULL,
	"ip" varchar(64),
	"user_agent" varchar(256),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "session_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "user_role" (
	"user_id" integer NOT NULL,
	"role_id" integer NOT NULL,
	CONSTRAINT "user_role_user_id_role_id_pk" PRIMARY KEY("user_id","role_id")
);
--> statement-breakpoint
CREATE TABLE "site" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" varchar(64) NOT NULL,
	"code" varchar(32) NOT NULL,
	"time_zone" varchar(64) DEFAULT 'Asia/Shanghai' NOT NULL,
	"commissioning_date" date,
	"service_end_date" date,
	"region_code" varchar(12),
	"address" varchar(256),
	"longitude" numeric(10, 6),
	"latitude" numeric(10, 6),
	"contact" varchar(64),
	"phone" varchar(32),
	"currency" varchar(8) DEFAULT 'CNY' NOT NULL,
	"site_type" varchar(32) DEFAULT 'storage' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "site_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "user_site" (
	"user_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	CONSTRAINT "user_site_user_id_site_id_pk" PRIMARY KEY("user_id","site_id")
);
--> statement-breakpoint
CREATE TABLE "stored_file" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"suffix" varchar(80) NOT NULL,
	"original_name" varchar(256) NOT NULL,
	"mime" varchar(128) NOT NULL,
	"size" integer NOT NULL,
	"sha256" varchar(64) NOT NULL,
	"company_id" integer NOT NULL,
	"uploaded_by" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stored_file_suffix_unique" UNIQUE("suffix")
);
--> statement-breakpoint
ALTER TABLE "app_user" ADD CONSTRAINT "app_user_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menu_interface" ADD CONSTRAINT "menu_interface_menu_id_menu_id_fk" FOREIGN KEY ("menu_id") REFERENCES "public"."menu"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menu_interface" ADD CONSTRAINT "menu_interface_interface_id_api_interface_id_fk" FOREIGN KEY ("interface_id") REFERENCES "public"."api_interface"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification" ADD CONSTRAINT "notification_user_id_app_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."app_user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification" ADD CONSTRAINT "notification_setting_id_notification_setting_id_fk" FOREIGN KEY ("setting_id") REFERENCES "public"."notification_setting"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_log" ADD CONSTRAINT "notification_log_setting_id_notification_setting_id_fk" FOREIGN KEY ("setting_id") REFERENCES "public"."notification_setting"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_setting" ADD CONSTRAINT "notification_setting_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role" ADD CONSTRAINT "role_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_interface" ADD CONSTRAINT "role_interface_role_id_role_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."role"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_interface" ADD CONSTRAINT "role_interface_interface_id_api_interface_id_fk" FOREIGN KEY ("interface_id") REFERENCES "public"."api_interface"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_menu" ADD CONSTRAINT "role_menu_role_id_role_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."role"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_menu" ADD CONSTRAINT "role_menu_menu_id_menu_id_fk" FOREIGN KEY ("menu_id") REFERENCES "public"."menu"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session" ADD CONSTRAINT "session_user_id_app_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."app_user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_role" ADD CONSTRAINT "user_role_user_id_app_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."app_user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_role" ADD CONSTRAINT "user_role_role_id_role_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."role"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site" ADD CONSTRAINT "site_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_site" ADD CONSTRAINT "user_site_user_id_app_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."app_user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_site" ADD CONSTRAINT "user_site_site_id_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "access_log_created_idx" ON "access_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "access_log_company_idx" ON "access_log" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "app_user_username_uq" ON "app_user" USING btree (lower("username"));--> statement-breakpoint
CREATE INDEX "app_user_company_idx" ON "app_user" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "company_path_idx" ON "company" USING btree ("path");--> statement-breakpoint
CREATE INDEX "company_parent_idx" ON "company" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "login_log_created_idx" ON "login_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "login_log_company_idx" ON "login_log" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "menu_interface_if_idx" ON "menu_interface" USING btree ("interface_id");--> statement-breakpoint
CREATE INDEX "notification_user_idx" ON "notification" USING btree ("user_id","read");--> statement-breakpoint
CREATE UNIQUE INDEX "role_company_name_uq" ON "role" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "session_user_idx" ON "session" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "user_role_role_idx" ON "user_role" USING btree ("role_id");--> statement-breakpoint
CREATE INDEX "site_company_idx" ON "site" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "user_site_site_idx" ON "user_site" USING btree ("site_id");