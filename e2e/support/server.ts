import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { eq } from 'drizzle-orm';
import { startApp, type RunningApp } from '../../apps/server/src/app.ts';
import { captcha } from '../../apps/server/src/db/schema/system.ts';
import { loadConfig, type RawConfig } from '../../apps/server/src/platform/config.ts';
import { createLogger } from '../../apps/server/src/platform/logging.ts';
import { migratedPgliteImage } from '../../apps/server/test/db-images.ts';

export const E2E_ADMIN_PASSWORD = 'Admin12345';
/** The built console; E2E_WEB_DIST points at another build (e.g. one made aside with `vite build --outDir`). */
export const WEB_DIST = process.env.E2E_WEB_DIST ?? resolve(import.meta.dirname, '../../apps/web/dist');

/**
 * The real server, in this process, serving the built console on a free port with embedded
 * PGlite; in-process so a test can read what a person would read off the captcha image.
 */
export async function startConsole(env: Partial<RawConfig> = {}): Promise<RunningApp & { captchaCode(id: string): Promise<string> }> {
  const config = loadConfig(
    {},
    {
      PORT: '0', HOST: '127.0.0.1', DATA_DIR: mkdtempSync(join(tmpdir(), 'ess-e2e-')), ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
      LOG_LEVEL: 'silent', VALIDATE_RESPONSES: 'true', SSE_HEARTBEAT_MS: '5000', WEB_DIST, MQTT_PORT: '0', PASSWORD_HASH_MEMORY_KIB: '1024', PASSWORD_HASH_TIME_COST: '1', ...env,
    },
  );
  const running = await startApp(config, { memoryDb: true, logger: createLogger('silent'), pgliteImage: await migratedPgliteImage() });
  return {
    ...running,
    captchaCode: async (id: string) => {
      const [row] = await running.ctx.db.select().from(captcha).where(eq(captcha.id, id));
      if (!row) throw new Error(`no captcha ${id}`);
      return row.code;
    },
  };
}
