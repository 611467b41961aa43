DROP INDEX "alarm_dict_threshold_uq";--> statement-breakpoint
ALTER TABLE "alarm" ADD COLUMN "end_reason" varchar(16);--> statement-breakpoint
ALTER TABLE "app_user" ADD COLUMN "all_sites" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "app_user" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "alarm_dict_threshold_uq" ON "alarm_dict" USING btree (coalesce("product_id", 0),coalesce("device_type", ''),"identifier","operator","level") WHERE "alarm_dict"."kind" = 'threshold';--> statement-breakpoint
-- The cached session carries all_sites (the data scope), and a deleted user's profile goes.
DROP TRIGGER "app_user_auth_changed" ON "app_user";--> statement-breakpoint
CREATE TRIGGER app_user_auth_changed
  AFTER UPDATE OF status, company_id, username, name, phone, email, build_in, last_login_at, all_sites, deleted_at OR DELETE OR TRUNCATE ON "app_user"
  FOR EACH STATEMENT EXECUTE FUNCTION ess_changed('ess_auth');
