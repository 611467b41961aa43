-- Every change that can end a session, change what a user may call or what the user's profile
-- shows notifies channel 'ess_auth' when its transaction commits, so each server instance drops its
-- cached session checks and profiles (platform/http/session-cache.ts). PostgreSQL folds equal notifications of one
-- transaction into one.
-- The channel is the trigger's argument.
CREATE FUNCTION ess_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify(TG_ARGV[0], '');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- A session's last_seen_at moves forward once a minute while it is used; only a step back (which
-- brings its idle limit nearer) or a change of its end or owner concerns the caches.
CREATE TRIGGER session_auth_changed AFTER UPDATE ON "session"
  FOR EACH ROW WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.expires_at IS DISTINCT FROM NEW.expires_at
                     OR OLD.user_id IS DISTINCT FROM NEW.user_id OR NEW.last_seen_at < OLD.last_seen_at)
  EXECUTE FUNCTION ess_changed('ess_auth');
--> statement-breakpoint
CREATE TRIGGER session_auth_deleted AFTER DELETE OR TRUNCATE ON "session"
  FOR EACH STATEMENT EXECUTE FUNCTION ess_changed('ess_auth');
--> statement-breakpoint
CREATE TRIGGER app_user_auth_changed
  AFTER UPDATE OF status, company_id, username, name, phone, email, build_in, last_login_at OR DELETE OR TRUNCATE ON "app_user"
  FOR EACH STATEMENT EXECUTE FUNCTION ess_changed('ess_auth');
--> statement-breakpoint
CREATE TRIGGER company_auth_changed AFTER UPDATE OF path, name OR DELETE OR TRUNCATE ON "company"
  FOR EACH STATEMENT EXECUTE FUNCTION ess_changed('ess_auth');
--> statement-breakpoint
CREATE TRIGGER user_role_auth_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "user_role"
  FOR EACH STATEMENT EXECUTE FUNCTION ess_changed('ess_auth');
--> statement-breakpoint
CREATE TRIGGER role_menu_auth_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "role_menu"
  FOR EACH STATEMENT EXECUTE FUNCTION ess_changed('ess_auth');
--> statement-breakpoint
CREATE TRIGGER role_interface_auth_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "role_interface"
  FOR EACH STATEMENT EXECUTE FUNCTION ess_changed('ess_auth');
--> statement-breakpoint
CREATE TRIGGER menu_interface_auth_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "menu_interface"
  FOR EACH STATEMENT EXECUTE FUNCTION ess_changed('ess_auth');
--> statement-breakpoint
CREATE TRIGGER role_auth_changed AFTER UPDATE OF name OR DELETE OR TRUNCATE ON "role"
  FOR EACH STATEMENT EXECUTE FUNCTION ess_changed('ess_auth');
--> statement-breakpoint
CREATE TRIGGER menu_auth_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "menu"
  FOR EACH STATEMENT EXECUTE FUNCTION ess_changed('ess_auth');
--> statement-breakpoint
-- Products and their properties (thing models): channel 'ess_model' drops the cached slot layouts.
CREATE TRIGGER product_model_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "product"
  FOR EACH STATEMENT EXECUTE FUNCTION ess_changed('ess_model');
--> statement-breakpoint
CREATE TRIGGER product_property_model_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "product_property"
  FOR EACH STATEMENT EXECUTE FUNCTION ess_changed('ess_model');
