CREATE TABLE "domain_event" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"type" varchar(64) NOT NULL,
	"payload" jsonb NOT NULL,
	"fanned_out" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "domain_event_delivery" (
	"event_id" bigint NOT NULL,
	"subscriber" varchar(64) NOT NULL,
	"status" varchar(8) DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"delivered_at" timestamp with time zone,
	CONSTRAINT "domain_event_delivery_event_id_subscriber_pk" PRIMARY KEY("event_id","subscriber")
);
--> statement-breakpoint
ALTER TABLE "domain_event_delivery" ADD CONSTRAINT "domain_event_delivery_event_id_domain_event_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."domain_event"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "domain_event_pending_idx" ON "domain_event" USING btree ("id") WHERE not "domain_event"."fanned_out";--> statement-breakpoint
CREATE INDEX "domain_event_created_idx" ON "domain_event" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "domain_event_delivery_due_idx" ON "domain_event_delivery" USING btree ("next_at") WHERE "domain_event_delivery"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "domain_event_delivery_dead_idx" ON "domain_event_delivery" USING btree ("subscriber") WHERE "domain_event_delivery"."status" = 'dead';