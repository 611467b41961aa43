import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { Db } from '../src/platform/db/database.ts';
import { migrationsFolder, openDatabase } from '../src/platform/db/database.ts';
import { seedShippedTranslations, shippedPacksKey } from '../src/modules/i18n/index.ts';

/**
 * Migrated empty databases to start test servers from. Creating a database (PGlite's initdb,
 * ~5 s on this machine; PostgreSQL's migrations, ~1 s) is the largest part of a test server's
 * start, and every integration test file starts one or two. The images are keyed by the
 * migrations (and the PGlite version), so a changed schema makes new ones; a test still runs the
 * migrator on its copy, which is a no-op on a current image. The images also hold the shipped
 * language packs' texts and translations (the i18n module's first-start seed, seconds on PGlite),
 * so the key includes the packs.
 */
const pgliteBuild = createHash('sha256').update(readFileSync(createRequire(import.meta.url).resolve('@electric-sql/pglite'))).digest('hex');

function migrationsKey(): string {
  const h = createHash('sha256').update(pgliteBuild).update('wal-segsize=1');
  const files = readdirSync(migrationsFolder, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.sql') || f.endsWith('.json')).sort();
  for (const f of files) h.update(f).update(readFileSync(join(migrationsFolder, f)));
  h.update(shippedPacksKey());
  return h.digest('hex').slice(0, 16);
}
const KEY = migrationsKey();

let pgliteImage: Promise<Blob> | null = null;

/** The migrated PGlite image of this schema: from the temp folder, or made there once. */
export function migratedPgliteImage(): Promise<Blob> {
  pgliteImage ??= (async () => {
    const file = join(tmpdir(), `ess-pglite-${KEY}.tar`);
    if (!existsSync(file)) {
      // Images of older schemas (42 MB each) go once they are a day old.
      for (const f of readdirSync(tmpdir()).filter((n) => /^ess-pglite-\w+\.tar$/.test(n))) {
        const p = join(tmpdir(), f);
        if (Date.now() - statSync(p).mtimeMs > 86_400_000) rmSync(p, { force: true });
      }
      // WAL in 1 MB segments, and only two kept past a checkpoint: the image held three 16 MB
      // segments (48 of its 90 MB), read and unpacked again on every test server's start.
      const client = await PGlite.create('memory://', {
        initDbStartParams: ['--wal-segsize=1'],
        startParams: [...PGlite.defaultStartParams, '-c', 'min_wal_size=2MB', '-c', 'max_wal_size=8MB'],
      });
      const db = drizzlePglite(client);
      await migratePglite(db, { migrationsFolder });
      await seedShippedTranslations(db as unknown as Db);
      await client.exec('checkpoint');
      const image = await client.dumpDataDir('none');
      await client.close();
      // Several test processes may make it at once: each writes its own file and renames it.
      const part = `${file}.${randomBytes(4).toString('hex')}`;
      writeFileSync(part, Buffer.from(await image.arrayBuffer()));
      renameSync(part, file);
    }
    return new Blob([readFileSync(file)]);
  })();
  return pgliteImage;
}

const TEMPLATE = `ess_tpl_${KEY}`;
let postgresTemplate: Promise<string> | null = null;

/**
 * The name of a PostgreSQL template database holding this schema, made once per schema;
 * `create database … template` copies it in a fraction of the migration time.
 */
export function migratedPostgresTemplate(adminUrl: string): Promise<string> {
  postgresTemplate ??= (async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ datname: string }>("select datname from pg_database where datname like 'ess\\_tpl\\_%'");
      // Older templates stay: a run of another checkout (another schema) may be copying them now.
      if (rows.some((r) => r.datname === TEMPLATE)) return TEMPLATE;
      // Built under a private name and renamed when complete, so no one copies a half-made one.
      const building = `ess_tplb_${randomBytes(6).toString('hex')}`;
      await admin.query(`create database ${building}`);
      const url = new URL(adminUrl);
      url.pathname = `/${building}`;
      const database = await openDatabase({ url: url.toString(), dataDir: tmpdir() });
      await seedShippedTranslations(database.db);
      await database.close();
      try {
        await admin.query(`alter database ${building} rename to ${TEMPLATE}`);
      } catch {
        // Another process finished first: use theirs.
        await admin.query(`drop database if exists ${building} with (force)`);
      }
      return TEMPLATE;
    } finally {
      await admin.end();
    }
  })();
  return postgresTemplate;
}
