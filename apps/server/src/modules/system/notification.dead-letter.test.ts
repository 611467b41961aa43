import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LOCALE, LOCALES, type Page } from '@ess/contract';
import { notification } from '../../db/schema/system.ts';
import { subscriber } from '../../platform/events/outbox.ts';
import { defineModule } from '../../platform/module.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newUser, roleIdByName, seededCompanies, type FactoryUser } from '../../../test/factory.ts';
import { emitPings } from '../../../test/outbox-fixtures.ts';
import { shippedPack } from '../i18n/i18n.routes.ts';
import { modules } from '../index.ts';
import { ADMIN_ROLE_NAME, DEAD_LETTER_TEXT, DEAD_LETTER_TITLE } from './notification.dead-letter.ts';

interface InboxRow {
  id: number;
  settingId: number | null;
  title: string;
  content: string;
  read: boolean;
}

/** A module whose one subscriber fails on every event it is given. */
const poisonModule = defineModule({
  name: 'poison',
  subscribers: [
    subscriber({ name: 'test.poison', events: ['test.ping'], handle: () => Promise.reject(new Error('毒丸：无法处理')) }),
  ],
});

/**
 * Issue 13, item 4: a delivery that goes dead is not only logged. The outbox writes an
 * `outbox.dead` event with the mark; the system module turns each batch of them into one
 * notification per dead subscriber in the message list of the administrators (holders of the
 * built-in 系统管理员 role), and nobody else's.
 */
describe.each(dbTargets(import.meta.url))('dead domain-event deliveries reach the administrators on %s', (target) => {
  let t: TestApp;
  let secondAdmin: FactoryUser;
  let allMenus: FactoryUser;
  let operator: FactoryUser;
  let disabledAdmin: FactoryUser;

  const inbox = async (token: string) => {
    const r = await t.api.post<Page<InboxRow>>('/system/notification/query/page', token, { current: 1, pageSize: 50 });
    expect(r.body.errorCode, r.body.tipMsg).toBe('00000');
    return r.body.data.records.filter((n) => n.title === DEAD_LETTER_TITLE);
  };
  const deliveriesOf = async (name: string) =>
    (await t.ctx.database.sql.query<{ status: string; attempts: number }>('select status, attempts from domain_event_delivery where subscriber = $1 order by event_id', [name])).rows;

  beforeAll(async () => {
    t = await startTestApp(target, {}, undefined, [...modules, poisonModule]);
    const { group, east } = await seededCompanies(t);
    const adminRole = await roleIdByName(t, ADMIN_ROLE_NAME, group.id);
    secondAdmin = await newUser(t, east.id, { roleId: adminRole });
    disabledAdmin = await newUser(t, group.id, { roleId: adminRole, status: 0, signIn: false });
    // Every menu, system administration included, but not the administrator role.
    allMenus = await newUser(t, group.id, { menus: 'all' });
    // Another built-in role.
    operator = await newUser(t, group.id, { roleId: await roleIdByName(t, '运营人员', group.id) });
  });
  afterAll(async () => t?.stop());

  it('a poison subscriber goes dead: one notice naming it, its event type, the count and the last error, for administrators only', async () => {
    await emitPings(t.ctx.database, 3);
    await t.ctx.outbox.drain();
    expect((await deliveriesOf('test.poison')).map((d) => [d.status, d.attempts])).toEqual([['pending', 1], ['pending', 1], ['pending', 1]]);
    expect(await inbox(t.adminToken)).toEqual([]);

    // Nine more failed attempts are backoff away (seconds to minutes): bring the last one forward.
    await t.ctx.database.sql.exec("update domain_event_delivery set attempts = 9, next_at = now() where subscriber = 'test.poison'");
    await t.ctx.outbox.drain();
    expect((await deliveriesOf('test.poison')).map((d) => [d.status, d.attempts])).toEqual([['dead', 10], ['dead', 10], ['dead', 10]]);
    expect((await deliveriesOf('system.deadLetterNotice')).map((d) => d.status)).toEqual(['done', 'done', 'done']);

    const text = '订阅者 test.poison 有 3 个事件重试耗尽，已停止投递（事件类型：test.ping）。最后错误：毒丸：无法处理';
    for (const token of [t.adminToken, secondAdmin.token]) {
      const notices = await inbox(token);
      expect(notices.map((n) => [n.title, n.content, n.read, n.settingId])).toEqual([[DEAD_LETTER_TITLE, text, false, null]]);
      expect((await t.api.post<{ unread: number }>('/system/notification/query/count', token, {})).body.data.unread).toBe(1);
    }
    expect(await inbox(allMenus.token)).toEqual([]);
    expect(await inbox(operator.token)).toEqual([]);
    expect(await t.ctx.db.select().from(notification).where(eq(notification.userId, disabledAdmin.id))).toEqual([]);
  });

  it('a dead notice is not itself announced: no notice about a notice, no loop', async () => {
    const before = (await inbox(t.adminToken)).length;
    await t.ctx.database.sql.exec("insert into domain_event (type, payload) values ('outbox.dead', '{}')");
    // The notice subscriber fails on a malformed notice until the delivery is dead.
    await t.ctx.outbox.drain();
    await t.ctx.database.sql.exec("update domain_event_delivery set attempts = 9, next_at = now() where subscriber = 'system.deadLetterNotice' and status = 'pending'");
    await t.ctx.outbox.drain();
    expect((await deliveriesOf('system.deadLetterNotice')).map((d) => d.status)).toEqual(['done', 'done', 'done', 'dead']);
    const { rows } = await t.ctx.database.sql.query<{ n: number }>("select count(*)::int as n from domain_event where type = 'outbox.dead'");
    expect(rows[0]!.n).toBe(4);
    expect(await inbox(t.adminToken)).toHaveLength(before);
  });
});

describe.each(LOCALES.filter((l) => l !== DEFAULT_LOCALE))('%s pack for the dead-delivery notice', (locale) => {
  it('translates its title and text, keeping the $n placeholders', async () => {
    const pack = new Map((await shippedPack(locale)).map((r) => [r.source, r.translation]));
    for (const source of [DEAD_LETTER_TITLE, DEAD_LETTER_TEXT]) {
      const translation = pack.get(source);
      expect(translation, source).toBeTruthy();
      expect(translation!.match(/\$\d/g)?.sort() ?? [], source).toEqual(source.match(/\$\d/g)?.sort() ?? []);
    }
  });
});
