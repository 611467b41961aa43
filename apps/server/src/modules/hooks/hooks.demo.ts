import { eq, sql } from 'drizzle-orm';
import { hook, hookParam, hookSetting } from '../../db/schema/hooks.ts';
import { appUser, company } from '../../db/schema/system.ts';
import type { SeedContext } from '../../platform/module.ts';
import { secretBox } from '../../platform/secrets.ts';
import { HOOK_PARAM_SECRET, HOOK_SIGNING_SECRET } from './hooks.context.ts';

/**
 * The demo's hooks (SEED_DEMO, first start: no hook or parameter yet), in the group company:
 * one active hook on alarm.opened to the local receiver (127.0.0.1:8628, which verifies each
 * signature with the documented demo secret below): the station simulator `npm start` plays hosts
 * it (apps/server/src/demo/simulator-process.ts), so the demo's live alarms are delivered and its
 * circuit stays closed; `npm run hook-catcher` runs the same receiver printing each request in
 * full. The demo's past is history and is not sent (decision 0042, amendment). And an
 * inactive example on alarm.ended to an external address; a constant and a secret parameter the
 * first script uses. The demo allows private targets (its receiver is on this machine); a
 * production installation keeps them refused.
 */
export const DEMO_HOOK_CATCHER_URL = 'http://127.0.0.1:8628/hooks/alarm';
/** The demo hook's signing secret, documented (scripts/hook-catcher.mjs verifies with it). */
export const DEMO_HOOK_SECRET = 'whsec_ZXNzLWNvbnNvbGUtZGVtby1ob29rLXNlY3JldC0zMmI=';
export const DEMO_HOOK_NAME = '本地接收器 · 告警产生';

const ALARM_SCRIPT = `// 告警产生时，把告警转成接收方的 JSON 格式；返回 null 则跳过本次推送。
function main(event, params) {
  const a = event.data;
  if (a.level > 3) return null; // 只推送 1–3 级告警
  return {
    source: params.source,
    token: params.apiKey,
    eventId: event.id,
    kind: event.type,
    alarm: { no: a.no, level: a.level, station: a.siteId, device: a.deviceId, text: a.description, since: a.startedAt },
  };
}
`;

const ENDED_SCRIPT = `function main(event, params) {
  return { text: '告警 ' + event.data.no + ' 已结束', at: event.timestamp };
}
`;

export async function seedHooksDemo({ config, db }: SeedContext): Promise<void> {
  if (!config.seedDemo) return;
  const [group] = await db.select({ id: company.id }).from(company).where(eq(company.code, 'GROUP'));
  if (!group) return;
  const [used] = await db
    .execute<{ n: number }>(sql`select (select count(*) from ${hook}) + (select count(*) from ${hookParam}) as n`)
    .then((r) => r.rows);
  if (Number(used?.n ?? 0) > 0) return;
  const [admin] = await db.select({ id: appUser.id }).from(appUser).where(eq(appUser.username, 'admin'));
  const box = secretBox(config.secretKey);
  await db.update(hookSetting).set({ allowPrivateTargets: true, updatedAt: new Date() }).where(eq(hookSetting.id, 1));
  await db.insert(hookParam).values([
    { companyId: group.id, name: 'source', kind: 'constant', value: 'ess-console-demo', remark: '来源标识', createdBy: admin?.id ?? null },
    { companyId: group.id, name: 'apiKey', kind: 'secret', valueEnc: box.seal('demo-api-key-123', HOOK_PARAM_SECRET), remark: '接收方的API密钥', createdBy: admin?.id ?? null },
  ]);
  const common = { companyId: group.id, method: 'POST', timeoutMs: 5000, ownerId: admin?.id ?? null, createdBy: admin?.id ?? null };
  await db.insert(hook).values([
    {
      ...common, name: DEMO_HOOK_NAME, eventType: 'alarm.opened', filter: { siteIds: [], levels: [1, 2, 3], statuses: [] }, script: ALARM_SCRIPT,
      url: DEMO_HOOK_CATCHER_URL, headers: [{ name: 'X-Source', value: 'ess-console' }], maxRetries: 3, backoffMs: 5000, active: true,
      secretEnc: box.seal(DEMO_HOOK_SECRET, HOOK_SIGNING_SECRET), secretHint: `${DEMO_HOOK_SECRET.slice(0, 10)}…`, remark: '演示：npm start 的模拟器内置接收器（请求列表 http://127.0.0.1:8628/）；单独运行可用 npm run hook-catcher',
    },
    {
      ...common, name: '示例 · 告警结束（未启用）', eventType: 'alarm.ended', script: ENDED_SCRIPT, url: 'https://hooks.example.com/ess/alarm-ended',
      maxRetries: 5, backoffMs: 10000, active: false, secretEnc: box.seal(DEMO_HOOK_SECRET, HOOK_SIGNING_SECRET),
      secretHint: `${DEMO_HOOK_SECRET.slice(0, 10)}…`, remark: '示例：启用前请改为您的系统地址',
    },
  ]);
}
