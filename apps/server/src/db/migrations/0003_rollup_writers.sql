ALTER TABLE "telemetry_1d" ADD COLUMN "writer" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "telemetry_1h" ADD COLUMN "writer" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "telemetry_5m" ADD COLUMN "writer" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "telemetry_1d" DROP CONSTRAINT "telemetry_1d_device_id_bucket_pk";--> statement-breakpoint
ALTER TABLE "telemetry_1h" DROP CONSTRAINT "telemetry_1h_device_id_bucket_pk";--> statement-breakpoint
ALTER TABLE "telemetry_5m" DROP CONSTRAINT "telemetry_5m_device_id_bucket_pk";--> statement-breakpoint
ALTER TABLE "telemetry_1d" ADD CONSTRAINT "telemetry_1d_device_id_bucket_writer_pk" PRIMARY KEY("device_id","bucket","writer");--> statement-breakpoint
ALTER TABLE "telemetry_1h" ADD CONSTRAINT "telemetry_1h_device_id_bucket_writer_pk" PRIMARY KEY("device_id","bucket","writer");--> statement-breakpoint
ALTER TABLE "telemetry_5m" ADD CONSTRAINT "telemetry_5m_device_id_bucket_writer_pk" PRIMARY KEY("device_id","bucket","writer");
