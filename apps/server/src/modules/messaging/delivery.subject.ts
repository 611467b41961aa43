import { eq, sql } from 'drizzle-orm';
import { MESSAGE_EVENT_LABELS, type MessageEvent } from '@ess/contract/messaging';
import { alarm, alarmDict } from '../../db/schema/alarm.ts';
import { device } from '../../db/schema/device.ts';
import { inspectionWorkOrder, repairOrder } from '../../db/schema/maintenance.ts';
import { site } from '../../db/schema/site.ts';
import { statement } from '../../db/schema/statement.ts';
import { company } from '../../db/schema/system.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { DomainEvent } from '../../platform/events/outbox.ts';
import { wallTime } from './message.context.ts';

/**
 * What a domain event is about, for the delivery engine: its station (whose company's rules
 * apply), the alarm level, the subject whose state decides whether a pending message still goes
 * (an alarm, a device, a work order), the assignee(s), and the template variables' values.
 */
export interface Subject {
  eventId: number;
  message: MessageEvent;
  siteId: number;
  siteCompanyId: number;
  siteCompanyPath: string;
  zone: string;
  siteEmail: string | null;
  sitePhone: string | null;
  level: number | null;
  minutes: number | null;
  subjectType: 'alarm' | 'device' | 'workorder' | 'repair' | 'statement';
  subjectId: number;
  assigneeIds: number[];
  /** When the event happened (timers count from it). */
  at: Date;
  values: Record<string, string>;
}

interface SiteFacts {
  companyId: number;
  companyPath: string;
  companyName: string;
  name: string;
  code: string;
  zone: string;
  email: string | null;
  phone: string | null;
}

async function siteFacts(db: DbOrTx, siteId: number): Promise<SiteFacts | undefined> {
  const [s] = await db
    .select({
      companyId: site.companyId, companyPath: company.path, companyName: company.name, name: site.name, code: site.code, zone: site.timeZone,
      email: site.email, phone: site.phone,
    })
    .from(site)
    .innerJoin(company, eq(company.id, site.companyId))
    .where(eq(site.id, siteId));
  return s;
}

async function deviceFacts(db: DbOrTx, deviceId: number) {
  const [d] = await db.select({ name: device.name, code: device.code }).from(device).where(eq(device.id, deviceId));
  return d;
}

type Base = Omit<Subject, 'eventId' | 'message' | 'values' | 'siteCompanyId' | 'siteCompanyPath' | 'zone' | 'siteEmail' | 'sitePhone'> & { values: Record<string, string | null | undefined> };

function complete(e: DomainEvent, message: MessageEvent, s: SiteFacts, b: Base): Subject {
  const values: Record<string, string> = {
    station: s.name, stationCode: s.code, company: s.companyName, time: wallTime(b.at, s.zone), eventType: MESSAGE_EVENT_LABELS[message],
  };
  for (const [k, v] of Object.entries(b.values)) if (v !== null && v !== undefined) values[k] = v;
  if (b.minutes !== null) values.minutes = String(b.minutes);
  return {
    ...b, eventId: e.id, message, siteCompanyId: s.companyId, siteCompanyPath: s.companyPath, zone: s.zone, siteEmail: s.email, sitePhone: s.phone, values,
  };
}

/** The message event a domain event is (null: the engine only listens to it, see delivery.plan.ts). */
export const MESSAGE_OF: Partial<Record<string, MessageEvent>> = {
  'alarm.opened': 'alarmOpened',
  'alarm.unacknowledged': 'alarmUnacknowledged',
  'alarm.ended': 'alarmEnded',
  'device.offlineFor': 'deviceOffline',
  'workorder.assigned': 'workOrderAssigned',
  'workorder.overdue': 'workOrderOverdue',
  'repair.assigned': 'repairAssigned',
  'statement.generated': 'statementToConfirm',
};

/** The domain events that have a subject (a message event, or the clock of a delayed one). */
const SUBJECT_EVENTS = [
  'alarm.opened', 'alarm.ended', 'alarm.unacknowledged', 'device.offline', 'device.offlineFor', 'workorder.created', 'workorder.assigned', 'workorder.overdue',
  'repair.assigned', 'statement.generated',
] as const;
export type SubjectEvent = DomainEvent<(typeof SUBJECT_EVENTS)[number]>;
export const hasSubject = (e: DomainEvent): e is SubjectEvent => (SUBJECT_EVENTS as readonly string[]).includes(e.type);

/** The subject of an event the engine sends about; undefined when its station is gone. */
export async function subjectOf(db: DbOrTx, e: SubjectEvent, message: MessageEvent): Promise<Subject | undefined> {
  switch (e.type) {
    case 'alarm.opened':
    case 'alarm.ended':
    case 'alarm.unacknowledged': {
      const p = e.payload;
      const s = await siteFacts(db, p.siteId);
      if (!s) return undefined;
      const d = await deviceFacts(db, p.deviceId);
      const [a] = await db.select({ code: alarm.code, name: alarmDict.description }).from(alarm).leftJoin(alarmDict, eq(alarmDict.id, alarm.dictId)).where(eq(alarm.id, p.id));
      return complete(e, message, s, {
        siteId: p.siteId, level: p.level, minutes: 'minutes' in p ? p.minutes : null, subjectType: 'alarm', subjectId: p.id, assigneeIds: [], at: new Date(p.startedAt),
        values: { device: d?.name, deviceCode: d?.code, level: String(p.level), alarmCode: a?.code, alarmName: a?.name ?? p.description, description: p.description },
      });
    }
    case 'device.offline':
    case 'device.offlineFor': {
      const p = e.payload;
      const s = await siteFacts(db, p.siteId);
      if (!s) return undefined;
      const d = await deviceFacts(db, p.deviceId);
      return complete(e, message, s, {
        siteId: p.siteId, level: null, minutes: 'minutes' in p ? p.minutes : null, subjectType: 'device', subjectId: p.deviceId, assigneeIds: [], at: new Date(p.at),
        values: { device: d?.name, deviceCode: d?.code ?? p.code, description: d?.name },
      });
    }
    case 'workorder.created':
    case 'workorder.assigned':
    case 'workorder.overdue': {
      const p = e.payload;
      const s = await siteFacts(db, p.siteId);
      if (!s) return undefined;
      const [o] = await db
        .select({ title: inspectionWorkOrder.title, dueAt: inspectionWorkOrder.dueAt, assigneeId: inspectionWorkOrder.assigneeId, assigneeName: inspectionWorkOrder.assigneeName })
        .from(inspectionWorkOrder)
        .where(eq(inspectionWorkOrder.id, p.id));
      const assigneeId = o?.assigneeId ?? p.assigneeId;
      return complete(e, message, s, {
        siteId: p.siteId, level: null, minutes: 'minutes' in p ? p.minutes : null, subjectType: 'workorder', subjectId: p.id, assigneeIds: assigneeId ? [assigneeId] : [],
        at: e.createdAt, values: { orderNo: p.no, orderTitle: o?.title, assignee: o?.assigneeName, dueTime: o ? wallTime(o.dueAt, s.zone) : undefined, description: o?.title },
      });
    }
    case 'repair.assigned': {
      const p = e.payload;
      const s = await siteFacts(db, p.siteId);
      if (!s) return undefined;
      const [o] = await db
        .select({ title: repairOrder.title, level: repairOrder.level, assigneeName: repairOrder.assigneeName, dueAt: repairOrder.dueAt, description: repairOrder.description })
        .from(repairOrder)
        .where(eq(repairOrder.id, p.id));
      return complete(e, message, s, {
        siteId: p.siteId, level: null, minutes: null, subjectType: 'repair', subjectId: p.id, assigneeIds: p.assigneeId ? [p.assigneeId] : [], at: e.createdAt,
        values: {
          orderNo: p.no, orderTitle: o?.title, assignee: o?.assigneeName, level: o ? String(o.level) : undefined,
          dueTime: o?.dueAt ? wallTime(o.dueAt, s.zone) : undefined, description: o?.description ?? o?.title,
        },
      });
    }
    case 'statement.generated': {
      const p = e.payload;
      const s = await siteFacts(db, p.siteId);
      if (!s) return undefined;
      const [st] = await db.select({ code: statement.code }).from(statement).where(eq(statement.id, p.id));
      return complete(e, message, s, {
        siteId: p.siteId, level: null, minutes: null, subjectType: 'statement', subjectId: p.id, assigneeIds: [p.investorUserId, p.powerUserUserId], at: e.createdAt,
        values: { month: p.month, statementNo: st?.code },
      });
    }
  }
}

/** The company of the station and those above it (a parent company's rules cover its subsidiaries' stations). */
export async function companyChain(db: DbOrTx, path: string): Promise<number[]> {
  const rows = await db.select({ id: company.id }).from(company).where(sql`${path} like ${company.path} || '%'`);
  return rows.map((r) => r.id);
}
