CREATE TABLE "device_operation" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"username" varchar(64) NOT NULL,
	"company_id" integer NOT NULL,
	"session_id" integer,
	"device_id" integer,
	"device_code" varchar(64),
	"site_id" integer,
	"path" varchar(128) NOT NULL,
	"command" varchar(32) NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"request_id" varchar(64),
	"result" varchar(16) NOT NULL,
	"error" varchar(500),
	"response" jsonb,
	"password_ok" boolean,
	"duration_ms" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "device_operation_device_idx" ON "device_operation" USING btree ("device_id","created_at");--> statement-breakpoint
CREATE INDEX "device_operation_user_idx" ON "device_operation" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "device_operation_created_idx" ON "device_operation" USING btree ("created_at");