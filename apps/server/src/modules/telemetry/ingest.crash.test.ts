/**
 * kill -9 of the ingest during ingest (issue 14, defect 4): an ingest process (test/ingest-worker.ts)
 * takes reports at about 1,000 a second from a Mosquitto configured as docs/mosquitto.conf
 * says, under a persistent session of its own client id; it is killed with SIGKILL mid-stream and
 * started again while devices keep publishing. Every report the broker acknowledged to a device
 * is stored, none twice: nothing was acknowledged to the broker before its batch committed, and
 * what the broker delivers again (committed, acknowledgement lost with the process) is recognised.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { registerFleet } from '../../demo/demo-seed.ts';
import { openDatabase } from '../../platform/db/database.ts';
import { DB_TARGETS, freshPostgres, Teardown } from '../../../test/harness.ts';
import { hasMosquittoBinary, isolatedFleet, ReportPublisher, sleep, startMosquitto, storedReports, until } from '../../../test/ingest-fixtures.ts';

const hasPostgres = DB_TARGETS.includes('postgres');
const RATE = 1000;
const WORKER = resolve(import.meta.dirname, '../../../test/ingest-worker.ts');

interface Worker {
  child: ChildProcess;
  /** What it printed so far. */
  out(): string;
}

/** Starts an ingest process and resolves once it is subscribed. */
async function startWorker(args: string[]): Promise<Worker> {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  await new Promise<void>((ready, fail) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('ready\n')) ready();
    });
    child.once('exit', (code) => fail(new Error(`ingest worker exited with ${code} before it was ready`)));
  });
  return { child, out: () => out };
}

/** Stops a worker gracefully and returns its ingest counters. */
async function stopWorker(w: Worker): Promise<Record<string, number>> {
  const exited = new Promise<void>((r) => w.child.once('exit', () => r()));
  w.child.kill('SIGTERM');
  await exited;
  const line = /counters (\{.*\})/.exec(w.out());
  return line ? (JSON.parse(line[1]!) as Record<string, number>) : {};
}

const killed = ({ child }: Worker) =>
  new Promise<void>((r) => {
    if (child.exitCode !== null || child.signalCode !== null) return r();
    child.once('exit', () => r());
    child.kill('SIGKILL');
  });

describe.skipIf(!hasPostgres || !hasMosquittoBinary)('kill -9 of the ingest (Mosquitto configured as documented, PostgreSQL)', () => {
  const tag = `K${randomBytes(3).toString('hex')}`;
  const fleet = isolatedFleet(tag);
  const devices = fleet.stations[0]!.devices.map((d) => d.code);
  const cleanup = new Teardown();
  afterAll(async () => {
    await cleanup.run();
  });

  it('loses no acknowledged report and stores none twice', async () => {
    const pg = await freshPostgres();
    cleanup.add('the test database', pg.drop);
    const mosquitto = await startMosquitto();
    cleanup.add('Mosquitto', () => mosquitto.stop());
    const args = [pg.url, mosquitto.url, `ess-test-${tag}`, `g${tag}`];
    // A first start seeds the database; the station is registered before the ingest that takes
    // the reports starts (an unknown device's reports are dropped).
    let worker = await startWorker(args);
    cleanup.add('the worker', () => killed(worker));
    const database = await openDatabase({ url: pg.url, dataDir: '' });
    cleanup.add('the database', () => database.close());
    await registerFleet(database.db, fleet);
    await killed(worker);
    worker = await startWorker(args);
    const publisher = await ReportPublisher.connect(mosquitto.url, tag, devices, `pub-${tag}`);
    cleanup.add('the publisher', () => publisher.close());
    publisher.start(RATE);
    await sleep(3000);
    const before = await storedReports(database.sql, tag);
    expect(before.rows).toBeGreaterThan(0);
    await killed(worker);
    const killedAt = publisher.sent;
    // Reports go on arriving at the broker while no ingest is there (it queues them for the session).
    await sleep(1500);
    worker = await startWorker(args);
    await sleep(3000);
    await publisher.stop();

    // Wait for the count to settle (it may never reach what was published where reports were lost).
    await until('every published report stored', async () => (await storedReports(database.sql, tag)).rows >= publisher.published, 30_000).catch(() => undefined);
    await sleep(1000);
    const stored = await storedReports(database.sql, tag);
    const counters = await stopWorker(worker);
    console.log(
      `crash test: published ${publisher.published} (killed after ~${killedAt}), stored ${stored.rows}, distinct (device, seq) ${stored.distinct}; ` +
        `after the restart: received ${counters.received}, redelivered and found stored ${counters.redeliveredStored}`,
    );
    expect(publisher.failed).toBe(0);
    expect(stored.rows).toBe(publisher.published);
    expect(stored.distinct).toBe(stored.rows);
  }, 120_000);
});
