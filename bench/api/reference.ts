/**
 * The reference of bench/api: bare Fastify with node-postgres (pg.Pool of REF_POOL_MAX, the server's
 * DB_POOL_MAX default) or, without REF_DATABASE_URL, a PGlite instance on disk in REF_PGLITE_DIR in
 * this process. GET or POST /ref/:queries/:bytes runs `queries` sequential indexed selects of one
 * row (a table of 1,000 rows it creates) and answers a JSON envelope holding those rows, padded to
 * `bytes` bytes. Started by run.ts as its own child process:
 *
 *   REF_PORT=… (REF_DATABASE_URL=… | REF_PGLITE_DIR=…) node --import tsx bench/api/reference.ts
 */
import Fastify from 'fastify';

type Query = (text: string, values: unknown[]) => Promise<{ rows: unknown[] }>;

const ROWS = 1000;

async function openDb(): Promise<{ query: Query; exec: (sql: string) => Promise<unknown> }> {
  const url = process.env.REF_DATABASE_URL;
  if (url) {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: url, max: Number(process.env.REF_POOL_MAX ?? 20) });
    return { query: (text, values) => pool.query(text, values), exec: (sql) => pool.query(sql) };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(process.env.REF_PGLITE_DIR ?? 'memory://');
  return { query: (text, values) => db.query(text, values), exec: (sql) => db.exec(sql) };
}

const db = await openDb();
await db.exec(`create table if not exists bench_ref (id int primary key, name text not null, value float8 not null);
  insert into bench_ref select i, 'row ' || i, i * 1.5 from generate_series(1, ${ROWS}) i on conflict do nothing; analyze bench_ref`);

const app = Fastify();
app.route<{ Params: { queries: string; bytes: string } }>({
  method: ['GET', 'POST'],
  url: '/ref/:queries/:bytes',
  handler: async (req, reply) => {
    const queries = Number(req.params.queries);
    const bytes = Number(req.params.bytes);
    const rows: unknown[] = [];
    for (let i = 0; i < queries; i++) {
      const r = await db.query('select id, name, value from bench_ref where id = $1', [1 + Math.floor(Math.random() * ROWS)]);
      rows.push(r.rows[0]);
    }
    return reply.type('application/json; charset=utf-8').send(padded(rows, bytes));
  },
});
await app.listen({ port: Number(process.env.REF_PORT), host: '127.0.0.1' });
process.stdout.write('reference ready\n');

/** The envelope `{errorCode, tipMsg, errorMsg, data: {rows, pad}}` of exactly `bytes` bytes (rows dropped if they do not fit). */
function padded(rows: unknown[], bytes: number): string {
  for (;;) {
    const head = `{"errorCode":"00000","tipMsg":"","errorMsg":"","data":{"rows":${JSON.stringify(rows)},"pad":"`;
    const tail = '"}}';
    const room = bytes - Buffer.byteLength(head) - tail.length;
    if (room >= 0 || rows.length === 0) return head + 'x'.repeat(Math.max(0, room)) + tail;
    rows = rows.slice(0, -1);
  }
}

for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => void app.close().then(() => process.exit(0)));
