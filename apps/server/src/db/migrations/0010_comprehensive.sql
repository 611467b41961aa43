CREATE TABLE "site_handle" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"action" varchar(32) NOT NULL,
	"note" varchar(200),
	"user_id" integer NOT NULL,
	"username" varchar(64) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_maintenance" (
	"site_id" integer PRIMARY KEY NOT NULL,
	"since" timestamp with time zone DEFAULT now() NOT NULL,
	"note" varchar(200),
	"user_id" integer NOT NULL,
	"username" varchar(64) NOT NULL
);
--> statement-breakpoint
ALTER TABLE "site_maintenance" ADD CONSTRAINT "site_maintenance_site_id_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "site_handle_site_idx" ON "site_handle" USING btree ("site_id","created_at");