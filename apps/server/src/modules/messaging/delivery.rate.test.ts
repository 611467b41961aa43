import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailAccount, mailLog, messageDelivery } from '../../db/schema/messaging.ts';
import { DB_TARGETS, dbTargets, freshPostgres, startTestApp, Teardown, type TestApp } from '../../../test/harness.ts';
import { seededCompanies } from '../../../test/factory.ts';
import { smtpPeer, type SmtpPeer } from '../../../test/smtp-peer.ts';
import { processDue, RATE_LIMITED } from './delivery.send.ts';

/**
 * The per-minute rate of a mail account (MESSAGE_RATE_PER_MINUTE, here 3): five mails due in one
 * minute → three go, two wait for the next minute without using an attempt; and the count is
 * shared by the instances on one database (two sweeping at once still send three, not six).
 */

const RATE = 3;
const MINUTE = 60_000;
/** A whole minute well ahead of the wall clock, so the servers' own sweeps leave the test's mails alone. */
const minuteAhead = (n: number) => new Date((Math.floor(Date.now() / MINUTE) + 30 + n) * MINUTE);
let nextEvent = 1;

/** Queues `n` mails through the account, due at `due`: the ledger rows and their log rows. */
async function queueMails(t: TestApp, companyId: number, accountId: number, n: number, due: Date): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const recipient = `duty${nextEvent}@example.com`;
    const [log] = await t.ctx.db
      .insert(mailLog)
      .values({ companyId, recipient, origin: 'rule', accountId, subject: `rate ${nextEvent}`, html: '<p>x</p>', text: 'x', nextAttemptAt: due })
      .returning({ id: mailLog.id });
    const [d] = await t.ctx.db
      .insert(messageDelivery)
      .values({ companyId, eventId: 900_000 + nextEvent++, eventType: 'alarm.opened', channel: 'mail', recipientKey: `mail:${recipient}`, dueAt: due, mailLogId: log!.id })
      .returning({ id: messageDelivery.id });
    ids.push(d!.id);
  }
  return ids;
}

const rowsOf = (t: TestApp, ids: number[]) =>
  t.ctx.db.select({ state: messageDelivery.state, heldReason: messageDelivery.heldReason, dueAt: messageDelivery.dueAt, attempts: messageDelivery.attempts }).from(messageDelivery).where(inArray(messageDelivery.id, ids));

async function account(t: TestApp, smtp: SmtpPeer): Promise<{ companyId: number; accountId: number }> {
  const { east } = await seededCompanies(t);
  const [a] = await t.ctx.db
    .insert(mailAccount)
    .values({ companyId: east.id, name: 'catcher', host: '127.0.0.1', port: smtp.port, tlsMode: 'none', fromAddress: 'ops@example.com' })
    .returning({ id: mailAccount.id });
  return { companyId: east.id, accountId: a!.id };
}

describe.each(dbTargets(import.meta.url))('the per-minute send rate of a mail account on %s', (target) => {
  let t: TestApp;
  let smtp: SmtpPeer;
  beforeAll(async () => {
    smtp = await smtpPeer();
    t = await startTestApp(target, { MESSAGE_RATE_PER_MINUTE: String(RATE) });
  });
  afterAll(async () => {
    await t?.stop();
    await smtp?.close();
  });

  it('sends the rate in a minute and holds the rest for the next minute, without using an attempt', async () => {
    const { companyId, accountId } = await account(t, smtp);
    const minute = minuteAhead(0);
    const ids = await queueMails(t, companyId, accountId, 5, minute);
    const first = await processDue(t.ctx, new Date(minute.getTime() + 1_000));
    expect(first).toMatchObject({ sent: RATE, held: 2 });
    expect(smtp.received).toHaveLength(RATE);
    const held = (await rowsOf(t, ids)).filter((r) => r.state === 'queued');
    expect(held).toHaveLength(2);
    for (const r of held) {
      expect(r.heldReason).toBe(RATE_LIMITED);
      expect(r.dueAt.getTime()).toBe(minute.getTime() + MINUTE);
      expect(r.attempts).toBe(0);
    }
    // Later in the same minute: still full.
    expect(await processDue(t.ctx, new Date(minute.getTime() + 50_000))).toMatchObject({ sent: 0 });
    const next = await processDue(t.ctx, new Date(minute.getTime() + MINUTE + 1_000));
    expect(next).toMatchObject({ sent: 2, held: 0 });
    expect(smtp.received).toHaveLength(5);
    expect((await rowsOf(t, ids)).map((r) => r.state)).toEqual(Array(5).fill('sent'));
  });
});

describe.skipIf(!DB_TARGETS.includes('postgres'))('the per-minute send rate across instances', () => {
  const apps: TestApp[] = [];
  let smtp: SmtpPeer;
  const cleanup = new Teardown();
  beforeAll(async () => {
    smtp = await smtpPeer();
    cleanup.add('the SMTP peer', () => smtp.close());
    const pg = await freshPostgres();
    cleanup.add('the test database', pg.drop);
    for (let i = 0; i < 2; i++) {
      const a = await startTestApp('postgres', { MESSAGE_RATE_PER_MINUTE: String(RATE) }, { databaseUrl: pg.url });
      cleanup.add('a server', () => a.stop());
      apps.push(a);
    }
  });
  afterAll(() => cleanup.run());

  it('counts the sends of every instance: two sweeping at once send the rate, not twice the rate', async () => {
    const [a, b] = apps as [TestApp, TestApp];
    const { companyId, accountId } = await account(a, smtp);
    const minute = minuteAhead(5);
    const ids = await queueMails(a, companyId, accountId, 8, minute);
    const at = new Date(minute.getTime() + 1_000);
    const [ra, rb] = await Promise.all([processDue(a.ctx, at), processDue(b.ctx, at)]);
    expect(ra.sent + rb.sent).toBe(RATE);
    expect(smtp.received).toHaveLength(RATE);
    const rows = await rowsOf(a, ids);
    expect(rows.filter((r) => r.state === 'sent')).toHaveLength(RATE);
    expect(rows.filter((r) => r.state === 'queued' && r.heldReason === RATE_LIMITED)).toHaveLength(8 - RATE);
    const [acc] = await a.ctx.db.select({ sentToday: mailAccount.sentToday }).from(mailAccount).where(eq(mailAccount.id, accountId));
    expect(acc!.sentToday).toBe(RATE);
  });
});
