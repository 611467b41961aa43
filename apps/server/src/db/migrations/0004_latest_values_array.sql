ALTER TABLE "device_latest" ADD COLUMN "v" double precision[];--> statement-breakpoint
ALTER TABLE "device_latest" ADD COLUMN "text" jsonb;--> statement-breakpoint
ALTER TABLE "device_latest" DROP COLUMN "values";