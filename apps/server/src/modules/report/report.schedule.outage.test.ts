import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportScheduleRecord } from '@ess/contract/report';
import { DB_TARGETS, Teardown, type TestApp } from '../../../test/harness.ts';
import { appOnCuttablePostgres, type CuttablePostgres } from '../../../test/outage-fixtures.ts';
import { smtpPeer, type SmtpPeer } from '../../../test/smtp-peer.ts';
import { newSite, newUser, okData, seededCompanies, until, type FactoryUser } from '../../../test/factory.ts';
import { sleep, type TcpProxy } from '../../../test/ingest-fixtures.ts';
import { mailAccount } from '../../db/schema/messaging.ts';
import { appUser } from '../../db/schema/system.ts';
import { attemptMail } from '../messaging/index.ts';
import { runDueSchedules } from './report.schedule.ts';

/**
 * A scheduled report through a database cut (decision 0050): PostgreSQL behind a TCP proxy cut
 * while a run mails its recipients (each in their own language, so each needs its own PDF). The
 * run is not left "running" for ever, nor failed, nor sent twice to anyone: it is given back when
 * the database is back, and the next sweep takes it up where it stopped. Every recipient gets the
 * report exactly once.
 *
 * PostgreSQL only: the cut is a TCP one; PGlite runs inside the server's process.
 */
const LANGUAGES = ['en-US', 'de-DE', 'fr-FR', 'ja-JP', 'es-ES', 'it-IT'] as const;

describe.skipIf(!DB_TARGETS.includes('postgres'))('a scheduled report through a database cut', () => {
  let t: TestApp;
  let proxy: TcpProxy;
  let peer: SmtpPeer;
  let owner: FactoryUser;
  let recipients: FactoryUser[];
  let q: CuttablePostgres['q'];
  let companyId: number;
  let siteId: number;
  const cleanup = new Teardown();
  let rejections: unknown[] = [];

  beforeAll(async () => {
    ({ t, proxy, q, rejections } = await appOnCuttablePostgres(cleanup));
    peer = await smtpPeer();
    cleanup.add('the SMTP peer', () => peer.close());
    const { east } = await seededCompanies(t);
    companyId = east.id;
    siteId = (await newSite(t, east.id)).id;
    owner = await newUser(t, east.id, { menus: ['/report/jimu'], siteIds: [siteId] });
    recipients = [];
    for (const [i, language] of LANGUAGES.entries()) {
      const u = await newUser(t, east.id, { siteIds: [siteId] });
      await t.ctx.db.update(appUser).set({ email: `r${i}@example.com`, language }).where(eq(appUser.id, u.id));
      recipients.push(u);
    }
    await t.ctx.db.insert(mailAccount).values({ companyId, name: 'reports', host: '127.0.0.1', port: peer.port, tlsMode: 'none', fromAddress: 'reports@example.com', isDefault: true });
  }, 120_000);
  afterAll(() => cleanup.run(), 60_000);

  it('gives the run back when cut short and takes it up where it stopped: every recipient mailed exactly once', async () => {
    const { id } = await okData(t.api.post<{ id: number }>('/report/schedule/add', owner.token, {
      companyId, name: 'Monthly operations', template: 'operations', siteIds: [siteId], format: 'pdf', frequency: 'daily', hour: 8, timeZone: 'Asia/Shanghai',
      userIds: recipients.map((u) => u.id), roleIds: [],
    }));
    const rec = await okData(t.api.post<ReportScheduleRecord>('/report/schedule/query/one', owner.token, { id }));
    const at = new Date(Date.parse(rec.nextRunAt!) + 5000);
    const recorded = async () => (await q<{ n: number; state: string }>('select jsonb_array_length(recipients)::int n, state from report_schedule_run where schedule_id = $1', [id]))[0];

    // The database goes once the first recipient is recorded, while the others' documents are made.
    const first = runDueSchedules(t.ctx, at);
    await until('the first recipient recorded', async () => ((await recorded())?.n ?? 0) >= 1, 60_000, 10);
    await proxy.cut();
    const cutAt = await recorded();
    expect(cutAt, 'the run was still going when the database went').toMatchObject({ state: 'running' });
    expect(cutAt!.n).toBeLessThan(LANGUAGES.length);
    await sleep(3000);
    await proxy.restore();
    // The cut run is given back (not failed, not left to its 10-minute lease).
    await first;
    const given = (await q<{ state: string; lease_until: Date | null }>('select state, lease_until from report_schedule_run where schedule_id = $1', [id]))[0]!;
    expect(given).toEqual({ state: 'running', lease_until: null });

    // The next sweep takes it up: the recipients recorded before the cut are not mailed again.
    await runDueSchedules(t.ctx, at);
    const [run] = await q<{ id: number; state: string; recipients: { userId: number; mailId: number | null; skipped: string | null }[] }>(
      'select id, state, recipients from report_schedule_run where schedule_id = $1', [id],
    );
    expect(run!.state).toBe('sent');
    expect(run!.recipients.map((r) => r.userId).sort((a, b) => a - b)).toEqual(recipients.map((u) => u.id).sort((a, b) => a - b));
    expect(run!.recipients.every((r) => r.mailId !== null && r.skipped === null)).toBe(true);
    const mails = await q<{ id: number; user_id: number }>(`select id, user_id from mail_log where origin = 'report'`);
    expect(mails.map((m) => m.user_id).sort((a, b) => a - b)).toEqual(recipients.map((u) => u.id).sort((a, b) => a - b));

    for (const m of mails) await attemptMail(t.ctx, m.id);
    await until('every mail at the SMTP peer', () => peer.received.length >= LANGUAGES.length);
    await sleep(500);
    const to = peer.received.flatMap((m) => m.to).sort();
    expect(to).toEqual(LANGUAGES.map((_, i) => `r${i}@example.com`).sort());
    expect(rejections.map(String)).toEqual([]);
  }, 180_000);
});
