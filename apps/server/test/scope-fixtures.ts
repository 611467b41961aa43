import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { accessLog, notification, notificationLog, notificationSetting } from '../src/db/schema/system.ts';
import { storedFile } from '../src/db/schema/files.ts';
import { cabinet, device, product } from '../src/db/schema/device.ts';
import { deviceChange } from '../src/db/schema/device-registry.ts';
import { distributionDiagram } from '../src/db/schema/site.ts';
import { priceCycle, priceTemplate, sitePriceCycle, solarPriceCycle } from '../src/db/schema/pricing.ts';
import { alarm, alarmShield } from '../src/db/schema/alarm.ts';
import { meterPeriodReading } from '../src/db/schema/meter-reading.ts';
import { inspectionDefect, inspectionItem, inspectionPlan, inspectionPlanSite, inspectionWorkOrder, maintenanceLog, repairOrder } from '../src/db/schema/maintenance.ts';
import { probeSuffix } from '../src/modules/files/files.service.ts';
import { siteStatementSetting, statement } from '../src/db/schema/statement.ts';
import { demandWindow } from '../src/db/schema/demand.ts';
import { strategy } from '../src/db/schema/strategy.ts';
import { mailAccount, mailLog, mailTemplate, messageRule, smsChannel, smsLog, smsTemplate } from '../src/db/schema/messaging.ts';
import { hook, hookExecRecord, hookParam } from '../src/db/schema/hooks.ts';
import { reportSchedule } from '../src/db/schema/report.ts';
import {
  firmwareKey, firmwareLogCapture, firmwareLogDevice, firmwarePackage, firmwareRollout, firmwareRolloutGroup, firmwareTask, firmwareUpload,
} from '../src/db/schema/firmware.ts';
import { probeUploadId } from '../src/modules/firmware/firmware.routes.ts';
import {
  iotCommand, iotConfig, iotDevice, iotEvent, iotParam, iotProduct, iotProperty, iotRelateCommand, iotRelateEvent, iotRelateParam, iotRelateProperty, iotSync, iotUnmapped,
} from '../src/db/schema/iot.ts';
import { newAlarm, newCompany, newDevice, newRole, newSite, newUser } from './factory.ts';
import type { TestApp } from './harness.ts';

/**
 * Creates one object of the named entity inside `companyId` (a company the probing user may
 * not see) and returns its id. Each module adds the entities its routes declare in `scope`.
 */
export type ScopeFixture = (t: TestApp, companyId: number) => Promise<number>;

export const scopeFixtures: Record<string, ScopeFixture> = {};

const suffix = () => randomBytes(4).toString('hex');

// System administration: a child company, a role and a user inside the given company.
scopeFixtures.company = async (t, companyId) => (await newCompany(t, companyId)).id;
scopeFixtures.role = (t, companyId) => newRole(t, companyId);
scopeFixtures.user = async (t, companyId) => (await newUser(t, companyId, { signIn: false })).id;

// Files: a stored-file row of the given company, named so the download probe can ask for it.
scopeFixtures.storedFile = async (t, companyId) => {
  const [f] = await t.ctx.db
    .insert(storedFile)
    .values({ suffix: `pending-${suffix()}`, originalName: 'probe.bin', mime: 'application/octet-stream', size: 1, sha256: '0'.repeat(64), companyId, uploadedBy: 1 })
    .returning({ id: storedFile.id });
  await t.ctx.db.update(storedFile).set({ suffix: probeSuffix(f!.id) }).where(eq(storedFile.id, f!.id));
  return f!.id;
};

// Logs and notifications: rows of the given company (the inbox probe: another user's notification).
async function probeSetting(t: TestApp, companyId: number) {
  const [s] = await t.ctx.db
    .insert(notificationSetting)
    .values({ companyId, title: 'probe', content: 'probe', pushMode: 'scheduled', pushAt: new Date(Date.now() + 3_600_000), targetType: 'role', targetIds: [1], createdBy: 1 })
    .returning({ id: notificationSetting.id });
  return s!.id;
}
scopeFixtures.notificationSetting = probeSetting;
scopeFixtures.notificationLog = async (t, companyId) => {
  const settingId = await probeSetting(t, companyId);
  const [l] = await t.ctx.db
    .insert(notificationLog)
    .values({ settingId, companyId, title: 'probe', recipientCount: 0, status: 'failed', error: 'probe' })
    .returning({ id: notificationLog.id });
  return l!.id;
};
scopeFixtures.notification = async (t, companyId) => {
  const userId = await scopeFixtures.user!(t, companyId);
  const [n] = await t.ctx.db.insert(notification).values({ userId, title: 'probe', content: 'probe' }).returning({ id: notification.id });
  return n!.id;
};
scopeFixtures.accessLog = async (t, companyId) => {
  const [a] = await t.ctx.db
    .insert(accessLog)
    .values({ companyId, userId: null, username: 'probe', method: 'POST', path: '/probe', status: 200, durationMs: 1, createdAt: new Date() })
    .returning({ id: accessLog.id });
  return a!.id;
};

// Stations and devices: a station of the given company, and a device on such a station.
scopeFixtures.site = async (t, companyId) => (await newSite(t, companyId)).id;
scopeFixtures.device = async (t, companyId) => (await newDevice(t, await scopeFixtures.site!(t, companyId), { type: 'bms' })).id;

// Meters named by code (meter electric data): a meter on a station of the given company, coded `probe-code-<id>`.
scopeFixtures.meterCode = async (t, companyId) => {
  const d = await newDevice(t, await scopeFixtures.site!(t, companyId), { type: 'meter', meterPurpose: 'main' });
  await t.ctx.db.update(device).set({ code: `probe-code-${d.id}` }).where(eq(device.id, d.id));
  return d.id;
};

// Device registry operations: a replacement record of a device on a station of the given company.
scopeFixtures.deviceChange = async (t, companyId) => {
  const deviceId = await scopeFixtures.device!(t, companyId);
  const [d] = await t.ctx.db.select().from(device).where(eq(device.id, deviceId));
  const [c] = await t.ctx.db
    .insert(deviceChange)
    .values({ deviceId, siteId: d!.siteId, productId: d!.productId, oldCode: d!.code, newCode: `${d!.code}-new`, oldName: d!.name, newName: d!.name, userId: 1, username: 'probe' })
    .returning({ id: deviceChange.id });
  return c!.id;
};

// Station configuration: an energy cabinet and a distribution diagram on such a station.
scopeFixtures.cabinet = async (t, companyId) => {
  const siteId = await scopeFixtures.site!(t, companyId);
  const [c] = await t.ctx.db.insert(cabinet).values({ siteId, code: `probe-${suffix()}`, name: 'probe' }).returning({ id: cabinet.id });
  return c!.id;
};
scopeFixtures.distributionDiagram = async (t, companyId) => {
  const siteId = await scopeFixtures.site!(t, companyId);
  const [d] = await t.ctx.db
    .insert(distributionDiagram)
    .values({ siteId, fileName: 'probe.svg', svg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>' })
    .returning({ id: distributionDiagram.id });
  return d!.id;
};

// Pricing: a template of the given company, one of its cycles, and a station's price configuration and feed-in price.
scopeFixtures.priceTemplate = async (t, companyId) => {
  const [p] = await t.ctx.db
    .insert(priceTemplate)
    .values({ companyId, name: `probe-${suffix()}`, type: 'generalCommercial', billingSystem: 'singlePart', voltageLevel: '10kV', currency: 'CNY' })
    .returning({ id: priceTemplate.id });
  return p!.id;
};
scopeFixtures.priceCycle = async (t, companyId) => {
  const templateId = await scopeFixtures.priceTemplate!(t, companyId);
  const [c] = await t.ctx.db
    .insert(priceCycle)
    .values({ templateId, name: 'probe', months: [1], periods: [{ start: '00:00', end: '24:00', period: 'flat' }], flatPrice: '0.5' })
    .returning({ id: priceCycle.id });
  return c!.id;
};
scopeFixtures.sitePriceCycle = async (t, companyId) => {
  const siteId = await scopeFixtures.site!(t, companyId);
  const templateId = await scopeFixtures.priceTemplate!(t, companyId);
  const [c] = await t.ctx.db.insert(sitePriceCycle).values({ siteId, templateId, startDate: '2024-01-01' }).returning({ id: sitePriceCycle.id });
  return c!.id;
};
scopeFixtures.solarPriceCycle = async (t, companyId) => {
  const siteId = await scopeFixtures.site!(t, companyId);
  const [c] = await t.ctx.db.insert(solarPriceCycle).values({ siteId, startDate: '2024-01-01', price: '0.3' }).returning({ id: solarPriceCycle.id });
  return c!.id;
};
// Alarms: an open alarm of a device on a station of the given company (raised by a seeded
// dictionary entry of its type), and a shield in force on that alarm's source.
scopeFixtures.alarm = async (t, companyId) => (await newAlarm(t, await scopeFixtures.device!(t, companyId))).id;
scopeFixtures.alarmShield = async (t, companyId) => {
  const alarmId = await scopeFixtures.alarm!(t, companyId);
  const [a] = await t.ctx.db.select().from(alarm).where(eq(alarm.id, alarmId));
  const [s] = await t.ctx.db
    .insert(alarmShield)
    .values({ deviceId: a!.deviceId, dictId: a!.dictId!, siteId: a!.siteId, startAt: new Date(), endAt: new Date(Date.now() + 3_600_000), alarmId, createdByName: 'probe' })
    .returning({ id: alarmShield.id });
  return s!.id;
};
// Maintenance orders: a work order (with its first log row), a defect and a repair order on a
// station of the given company.
scopeFixtures.workOrder = async (t, companyId) => {
  const siteId = await scopeFixtures.site!(t, companyId);
  const no = `XJPROBE${suffix()}`;
  const [o] = await t.ctx.db
    .insert(inspectionWorkOrder)
    .values({ no, siteId, origin: 'manual', title: 'probe', status: 'toBeAssigned', scheduledDate: '2026-01-01', startAt: new Date(), dueAt: new Date(Date.now() + 3_600_000), createdByName: 'probe' })
    .returning({ id: inspectionWorkOrder.id });
  await t.ctx.db.insert(maintenanceLog).values({ entity: 'workOrder', entityId: o!.id, action: 'create', fromState: 'toBeAssigned', toState: 'toBeAssigned', username: 'probe' });
  return o!.id;
};
scopeFixtures.workOrderLog = async (t, companyId) => {
  const orderId = await scopeFixtures.workOrder!(t, companyId);
  const [l] = await t.ctx.db.select({ id: maintenanceLog.id }).from(maintenanceLog).where(and(eq(maintenanceLog.entity, 'workOrder'), eq(maintenanceLog.entityId, orderId)));
  return l!.id;
};
scopeFixtures.defect = async (t, companyId) => {
  const siteId = await scopeFixtures.site!(t, companyId);
  const [d] = await t.ctx.db
    .insert(inspectionDefect)
    .values({ no: `QXPROBE${suffix()}`, siteId, level: 3, description: 'probe', foundByName: 'probe' })
    .returning({ id: inspectionDefect.id });
  return d!.id;
};
scopeFixtures.repairOrder = async (t, companyId) => {
  const siteId = await scopeFixtures.site!(t, companyId);
  const [r] = await t.ctx.db
    .insert(repairOrder)
    .values({ no: `WXPROBE${suffix()}`, siteId, level: 3, title: 'probe', source: 'manual', createdByName: 'probe' })
    .returning({ id: repairOrder.id });
  return r!.id;
};

// Maintenance: an inspection item of the given company; a plan of the company on one of its stations.
scopeFixtures.inspectionItem = async (t, companyId) => {
  const [i] = await t.ctx.db.insert(inspectionItem).values({ companyId, name: `probe-${suffix()}`, checkType: 'text' }).returning({ id: inspectionItem.id });
  return i!.id;
};
scopeFixtures.inspectionPlan = async (t, companyId) => {
  const siteId = await scopeFixtures.site!(t, companyId);
  const schedule = { kind: 'daily', startDate: '2026-01-01', endDate: null, time: '08:00', dueHours: 24 } as const;
  const [p] = await t.ctx.db
    .insert(inspectionPlan)
    .values({ companyId, name: `probe-${suffix()}`, schedule, startDate: schedule.startDate })
    .returning({ id: inspectionPlan.id });
  await t.ctx.db.insert(inspectionPlanSite).values({ planId: p!.id, siteId });
  return p!.id;
};

// Statements: a station's settlement settings, and a draft statement of a station of the given company.
scopeFixtures.siteStatementSetting = async (t, companyId) => {
  const siteId = await scopeFixtures.site!(t, companyId);
  const [s] = await t.ctx.db
    .insert(siteStatementSetting)
    .values({ siteId, investorName: 'probe', investorUserId: 1, powerUserName: 'probe', powerUserUserId: 1, investorShareRatio: '50', billingDay: 1 })
    .returning({ id: siteStatementSetting.id });
  return s!.id;
};
scopeFixtures.statement = async (t, companyId) => {
  const siteId = await scopeFixtures.site!(t, companyId);
  const zero = { chargeEnergy: '0', dischargeEnergy: '0', pvSelfUseEnergy: '0', pvExportEnergy: '0', pileEnergy: '0', storageRevenue: '0', pvRevenue: '0', pileRevenue: '0', totalRevenue: '0', investorAmount: '0', powerUserAmount: '0' };
  const [s] = await t.ctx.db
    .insert(statement)
    .values({
      code: `JS-PROBE-${suffix()}`, siteId, month: '2026-01', periodStart: '2026-01-01', periodEnd: '2026-01-31', currency: 'CNY', investorName: 'probe', investorUserId: 1,
      powerUserName: 'probe', powerUserUserId: 1, investorShareRatio: '50', ...zero,
    })
    .returning({ id: statement.id });
  return s!.id;
};

// Strategy: a station's operation strategy (one idle schedule for every day).
scopeFixtures.strategy = async (t, companyId) => {
  const siteId = await scopeFixtures.site!(t, companyId);
  const windows = [{ start: '00:00', end: '24:00', mode: 'idle' as const, powerKw: 0, targetSoc: null }];
  const [s] = await t.ctx.db
    .insert(strategy)
    .values({ siteId, schedules: [{ name: 'probe', priority: 1, months: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], weekdays: [1, 2, 3, 4, 5, 6, 7], windows }], socMin: 10, socMax: 100, antiBackflow: true })
    .returning({ id: strategy.id });
  return s!.id;
};

// Meter readings: a meter of each subsystem on a station of the given company, and a period reading of it.
for (const subsystem of ['storage', 'pv', 'pile'] as const) {
  scopeFixtures[`${subsystem}Meter`] = async (t, companyId) =>
    (await newDevice(t, await scopeFixtures.site!(t, companyId), { type: 'meter', meterPurpose: subsystem })).id;
  scopeFixtures[`${subsystem}PeriodReading`] = async (t, companyId) => {
    const deviceId = await scopeFixtures[`${subsystem}Meter`]!(t, companyId);
    const [d] = await t.ctx.db.select({ siteId: device.siteId }).from(device).where(eq(device.id, deviceId));
    const [r] = await t.ctx.db
      .insert(meterPeriodReading)
      .values({
        subsystem, deviceId, siteId: d!.siteId, periodStart: '2026-01-01', periodEnd: '2026-01-31', startAt: new Date('2025-12-31T16:00:00Z'),
        endAt: new Date('2026-01-31T16:00:00Z'), startRegisters: [], endRegisters: [], differences: [], quality: 'missing',
      })
      .returning({ id: meterPeriodReading.id });
    return r!.id;
  };
}

// Demand: a 15-minute window of a station of the given company (the measure detail's object).
scopeFixtures.demandWindow = async (t, companyId) => {
  const siteId = await scopeFixtures.site!(t, companyId);
  const [w] = await t.ctx.db
    .insert(demandWindow)
    .values({ siteId, ts: new Date('2026-01-15T02:00:00Z'), importKwh: 10, demandKw: 40, chargeKwh: 0, dischargeKwh: 5 })
    .returning({ id: demandWindow.id });
  return w!.id;
};

// Messaging: a message rule of the given company (console to the station's contacts).
scopeFixtures.messageRule = async (t, companyId) => {
  const [r] = await t.ctx.db
    .insert(messageRule)
    .values({ companyId, name: `probe-${suffix()}`, event: 'alarmOpened', channels: ['console'], recipients: { userIds: [], roleIds: [], siteContacts: true, assignee: false } })
    .returning({ id: messageRule.id });
  return r!.id;
};
// Messaging: a mail account, a mail template and a mail log row of the given company.
scopeFixtures.mailAccount = async (t, companyId) => {
  const [a] = await t.ctx.db
    .insert(mailAccount)
    .values({ companyId, name: `probe-${suffix()}`, host: '127.0.0.1', port: 9, tlsMode: 'none', fromAddress: 'probe@example.com' })
    .returning({ id: mailAccount.id });
  return a!.id;
};
scopeFixtures.mailTemplate = async (t, companyId) => {
  const [m] = await t.ctx.db
    .insert(mailTemplate)
    .values({ companyId, name: 'probe', code: `probe${suffix()}`, language: 'zh-CN', subject: 'probe', html: '<p>probe</p>' })
    .returning({ id: mailTemplate.id });
  return m!.id;
};
scopeFixtures.mailLog = async (t, companyId) => {
  const [l] = await t.ctx.db
    .insert(mailLog)
    .values({ companyId, recipient: 'probe@example.com', origin: 'test', subject: 'probe', html: '', text: '', state: 'failed' })
    .returning({ id: mailLog.id });
  return l!.id;
};

// Messaging (SMS): a channel, a template and a log row of the given company.
scopeFixtures.smsChannel = async (t, companyId) => {
  const [c] = await t.ctx.db
    .insert(smsChannel)
    .values({ companyId, name: `probe-${suffix()}`, provider: 'twilio', accessKeyId: `AC${'0'.repeat(32)}`, sender: '+15005550006' })
    .returning({ id: smsChannel.id });
  return c!.id;
};
scopeFixtures.smsTemplate = async (t, companyId) => {
  const [c] = await t.ctx.db
    .insert(smsTemplate)
    .values({ companyId, name: 'probe', code: `probe${suffix()}`, language: 'zh-CN', content: '告警 ${station}' })
    .returning({ id: smsTemplate.id });
  return c!.id;
};
scopeFixtures.smsLog = async (t, companyId) => {
  const [l] = await t.ctx.db
    .insert(smsLog)
    .values({ companyId, recipient: '+8613800138000', origin: 'test', content: 'probe', state: 'failed' })
    .returning({ id: smsLog.id });
  return l!.id;
};

// Hooks: a hook and a parameter of the given company.
scopeFixtures.hook = async (t, companyId) => {
  const [h] = await t.ctx.db
    .insert(hook)
    .values({ companyId, name: `probe-${suffix()}`, eventType: 'alarm.opened', url: 'https://hooks.example.com/probe', secretEnc: 'x', secretHint: 'whsec_x…' })
    .returning({ id: hook.id });
  return h!.id;
};
scopeFixtures.hookParam = async (t, companyId) => {
  const [p] = await t.ctx.db.insert(hookParam).values({ companyId, name: `probe${suffix()}`, kind: 'constant', value: 'x' }).returning({ id: hookParam.id });
  return p!.id;
};
// Hooks (dispatch): an execution record of a hook of the given company.
scopeFixtures.hookExecRecord = async (t, companyId) => {
  const hookId = await scopeFixtures.hook!(t, companyId);
  const [r] = await t.ctx.db
    .insert(hookExecRecord)
    .values({ companyId, hookId, hookName: 'probe', eventType: 'alarm.opened', state: 'failed', input: { event: { data: {} }, params: {} } })
    .returning({ id: hookExecRecord.id });
  return r!.id;
};

// Firmware: a public key, a package and an upload session of the given company.
scopeFixtures.firmwareKey = async (t, companyId) => {
  const [k] = await t.ctx.db
    .insert(firmwareKey)
    .values({ companyId, name: 'probe', algorithm: 'ed25519', publicKeyPem: 'probe', fingerprint: randomBytes(32).toString('hex') })
    .returning({ id: firmwareKey.id });
  return k!.id;
};
scopeFixtures.firmwarePackage = async (t, companyId) => {
  const [p] = await t.ctx.db
    .insert(firmwarePackage)
    .values({ companyId, deviceType: 'bms', name: `probe${suffix()}`, version: '1.0.0', fileName: 'probe.bin', storageKey: `probe-${suffix()}.bin`, size: 1, sha256: '0'.repeat(64) })
    .returning({ id: firmwarePackage.id });
  return p!.id;
};
scopeFixtures.firmwareUpload = async (t, companyId) => {
  const n = randomBytes(3).readUIntBE(0, 3) + 1;
  await t.ctx.db.insert(firmwareUpload).values({
    id: probeUploadId(n), companyId, userId: 1, size: 1, expiresAt: new Date(Date.now() + 3_600_000),
    meta: { deviceType: 'bms', productId: null, name: 'probe', version: '1.0.0', upgradeFrom: null, releaseNotes: null, fileName: 'probe.bin', sha256: null, signature: null },
  });
  return n;
};
// Firmware rollouts: a rollout of the company's package with one task at a station of the company, and a log capture of that station's device.
async function probeRolloutDevice(t: TestApp, companyId: number) {
  const s = await newSite(t, companyId);
  const d = await newDevice(t, s.id, { type: 'bms' });
  return { siteId: s.id, deviceId: d.id };
}
scopeFixtures.firmwareRollout = async (t, companyId) => {
  const packageId = await scopeFixtures.firmwarePackage!(t, companyId);
  const { siteId, deviceId } = await probeRolloutDevice(t, companyId);
  const [r] = await t.ctx.db
    .insert(firmwareRollout)
    .values({
      companyId, name: 'probe', packageId, state: 'pendingApproval', requireApproval: true, successThreshold: 50, errorThreshold: 50,
      target: { packageId, siteIds: [siteId], productIds: [], versions: [], deviceIds: [] }, grouping: { canarySize: 1, groupSize: 1, groupPercent: null },
    })
    .returning({ id: firmwareRollout.id });
  const [g] = await t.ctx.db.insert(firmwareRolloutGroup).values({ rolloutId: r!.id, no: 1, canary: true, successThreshold: 50, errorThreshold: 50 }).returning({ id: firmwareRolloutGroup.id });
  await t.ctx.db.insert(firmwareTask).values({ rolloutId: r!.id, groupId: g!.id, deviceId, siteId, toVersion: '1.0.0' });
  return r!.id;
};
scopeFixtures.firmwareTask = async (t, companyId) => {
  const rolloutId = await scopeFixtures.firmwareRollout!(t, companyId);
  const [task] = await t.ctx.db.select({ id: firmwareTask.id }).from(firmwareTask).where(eq(firmwareTask.rolloutId, rolloutId));
  return task!.id;
};
async function probeCapture(t: TestApp, companyId: number) {
  const { siteId, deviceId } = await probeRolloutDevice(t, companyId);
  const [c] = await t.ctx.db
    .insert(firmwareLogCapture)
    .values({ companyId, name: 'probe', fromAt: new Date(Date.now() - 3_600_000), toAt: new Date(), timeoutMinutes: 10 })
    .returning({ id: firmwareLogCapture.id });
  const [row] = await t.ctx.db.insert(firmwareLogDevice).values({ captureId: c!.id, deviceId, siteId, state: 'uploaded', storageKey: `probe-${suffix()}.log`, bytes: 1 }).returning({ id: firmwareLogDevice.id });
  return { captureId: c!.id, rowId: row!.id };
}
scopeFixtures.firmwareLog = async (t, companyId) => (await probeCapture(t, companyId)).captureId;
scopeFixtures.firmwareLogDevice = async (t, companyId) => (await probeCapture(t, companyId)).rowId;

// IoT (issue 23): an application of the given company, a product read from its platform with an
// event, a command (with an input), a property and a device, a sync run, and relations of each kind.
const iotIds = async (t: TestApp, companyId: number) => {
  const s = suffix();
  const [c] = await t.ctx.db
    .insert(iotConfig)
    .values({ companyId, name: `probe${s}`, platform: 'thingsboard', baseUrl: 'http://127.0.0.1:9', username: 'probe', passwordEnc: 'v1.x.x.x.x' })
    .returning({ id: iotConfig.id });
  const own = { companyId, configId: c!.id };
  const [p] = await t.ctx.db.insert(iotProduct).values({ ...own, externalId: `p${s}`, name: 'probe' }).returning({ id: iotProduct.id });
  const item = { ...own, iotProductId: p!.id };
  const [prop] = await t.ctx.db.insert(iotProperty).values({ ...item, identifier: 'probe', name: 'probe', dataType: 'float', source: 'metadata' }).returning({ id: iotProperty.id });
  const [ev] = await t.ctx.db.insert(iotEvent).values({ ...item, identifier: 'probe', name: 'probe' }).returning({ id: iotEvent.id });
  const [cmd] = await t.ctx.db.insert(iotCommand).values({ ...item, identifier: 'probe', name: 'probe' }).returning({ id: iotCommand.id });
  const [par] = await t.ctx.db
    .insert(iotParam)
    .values({ ...item, ownerKind: 'command', commandId: cmd!.id, direction: 'input', identifier: 'probe', name: 'probe', dataType: 'float' })
    .returning({ id: iotParam.id });
  const [dev] = await t.ctx.db.insert(iotDevice).values({ ...item, externalId: `d${s}`, name: 'probe', state: 'online' }).returning({ id: iotDevice.id });
  const [prod] = await t.ctx.db.select({ id: product.id }).from(product).limit(1);
  const rel = { ...item, iotDeviceId: null, productId: prod!.id, identifier: 'probe' };
  return { configId: c!.id, productId: p!.id, propertyId: prop!.id, eventId: ev!.id, commandId: cmd!.id, paramId: par!.id, deviceId: dev!.id, rel, companyId };
};
scopeFixtures.iotConfig = async (t, companyId) => (await iotIds(t, companyId)).configId;
scopeFixtures.iotProduct = async (t, companyId) => (await iotIds(t, companyId)).productId;
scopeFixtures.iotEvent = async (t, companyId) => (await iotIds(t, companyId)).eventId;
scopeFixtures.iotCommand = async (t, companyId) => (await iotIds(t, companyId)).commandId;
scopeFixtures.iotDevice = async (t, companyId) => (await iotIds(t, companyId)).deviceId;
scopeFixtures.iotSync = async (t, companyId) => {
  const ids = await iotIds(t, companyId);
  const [r] = await t.ctx.db.insert(iotSync).values({ companyId, configId: ids.configId, scope: 'full', state: 'planned' }).returning({ id: iotSync.id });
  return r!.id;
};
scopeFixtures.iotRelateProperty = async (t, companyId) => {
  const ids = await iotIds(t, companyId);
  const [r] = await t.ctx.db.insert(iotRelateProperty).values({ ...ids.rel, iotPropertyId: ids.propertyId }).returning({ id: iotRelateProperty.id });
  return r!.id;
};
scopeFixtures.iotRelateEvent = async (t, companyId) => {
  const ids = await iotIds(t, companyId);
  const [r] = await t.ctx.db.insert(iotRelateEvent).values({ ...ids.rel, iotEventId: ids.eventId }).returning({ id: iotRelateEvent.id });
  return r!.id;
};
async function iotRelateCommandFixture(t: TestApp, companyId: number) {
  const ids = await iotIds(t, companyId);
  const [r] = await t.ctx.db.insert(iotRelateCommand).values({ ...ids.rel, iotCommandId: ids.commandId }).returning({ id: iotRelateCommand.id });
  return { id: r!.id, paramId: ids.paramId };
}
scopeFixtures.iotRelateCommand = async (t, companyId) => (await iotRelateCommandFixture(t, companyId)).id;
scopeFixtures.iotRelateParam = async (t, companyId) => {
  const rc = await iotRelateCommandFixture(t, companyId);
  const [r] = await t.ctx.db.insert(iotRelateParam).values({ companyId, relateCommandId: rc.id, iotParamId: rc.paramId, identifier: 'probe' }).returning({ id: iotRelateParam.id });
  return r!.id;
};
scopeFixtures.iotUnmapped = async (t, companyId) => {
  const ids = await iotIds(t, companyId);
  const [r] = await t.ctx.db
    .insert(iotUnmapped)
    .values({ companyId, configId: ids.configId, iotProductId: ids.productId, key: 'probe', firstSeenAt: new Date(), lastSeenAt: new Date() })
    .returning({ id: iotUnmapped.id });
  return r!.id;
};
// Reports: a schedule of the given company.
scopeFixtures.reportSchedule = async (t, companyId) => {
  const [r] = await t.ctx.db
    .insert(reportSchedule)
    .values({
      companyId, name: `probe-${suffix()}`, template: 'revenue', siteIds: [], granularity: 'day', format: 'xlsx', frequency: 'daily', hour: 8, weekday: 1, monthDay: 1,
      timeZone: 'Asia/Shanghai', userIds: [], roleIds: [],
    })
    .returning({ id: reportSchedule.id });
  return r!.id;
};
