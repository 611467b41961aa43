import {
  describeSchedule, localDateOf, nextDueDates, planSchedule, WEEKDAY_LABELS, type DueSlot, type PlanSchedule, type ScheduleKind,
} from '@ess/contract/maintenance';
import { localTime } from '@ess/contract/time';

type Translate = (source: string, ...args: unknown[]) => string;

/** The schedule as the form edits it (every kind's fields kept while the kind changes). */
export interface ScheduleDraft {
  kind: ScheduleKind;
  weekdays?: number[];
  day?: number | null;
  everyDays?: number | null;
  startDate?: string | null;
  endDate?: string | null;
  time?: string | null;
  dueHours?: number | null;
}

/** A new plan's schedule: daily at 08:00 from today, due within 24 hours. */
export const newSchedule = (today: string): ScheduleDraft => ({ kind: 'daily', weekdays: [1], day: 1, everyDays: 7, startDate: today, endDate: null, time: '08:00', dueHours: 24 });

/** The request's schedule of a draft: the chosen kind's fields only. */
export function scheduleBody(d: ScheduleDraft | undefined): Record<string, unknown> | undefined {
  if (!d) return undefined;
  const common = { startDate: d.startDate ?? undefined, endDate: d.endDate ?? null, time: d.time ?? undefined, dueHours: d.dueHours ?? undefined };
  switch (d.kind) {
    case 'weekly':
      return { kind: 'weekly', weekdays: d.weekdays ?? [], ...common };
    case 'monthly':
      return { kind: 'monthly', day: d.day ?? undefined, ...common };
    case 'interval':
      return { kind: 'interval', everyDays: d.everyDays ?? undefined, ...common };
    case 'daily':
      return { kind: 'daily', ...common };
  }
}

/** A stored schedule as a draft. */
export const scheduleDraft = (s: PlanSchedule): ScheduleDraft => ({ ...newSchedule(s.startDate), ...s });

/** The next `count` due slots of a draft at a station zone, or the first issue (source text) when the draft is not a valid schedule. */
export function previewOf(d: ScheduleDraft | undefined, zone: string, now: number, count = 10): { slots: DueSlot[]; issue: string | null } {
  const parsed = planSchedule.safeParse(scheduleBody(d));
  if (!parsed.success) return { slots: [], issue: parsed.error.issues[0]?.message ?? '周期类型不正确' };
  return { slots: nextDueDates(parsed.data, now, count, zone), issue: null };
}

/** A slot as the preview shows it, in the station's own time: "2026-11-30 周一 08:00 → 11-30 20:00". */
export function slotText(slot: DueSlot, zone: string, t: Translate): string {
  const start = localTime(slot.startAt, zone);
  const due = localTime(slot.dueAt, zone);
  const hm = (l: typeof start) => `${String(l.hour).padStart(2, '0')}:${String(l.minute).padStart(2, '0')}`;
  const dueDay = due.dateKey === start.dateKey ? '' : `${due.dateKey.slice(5)} `;
  return `${slot.date} ${t(WEEKDAY_LABELS[start.weekday]!)} ${hm(start)} → ${dueDay}${hm(due)}`;
}

/** A schedule in the user's language (describeSchedule's parts through the pack). */
export function scheduleText(s: PlanSchedule, t: Translate): string {
  const when =
    s.kind === 'daily' ? t('每天')
    : s.kind === 'weekly' ? `${t('每周')} ${s.weekdays.map((d) => t(WEEKDAY_LABELS[d]!)).join(', ')}`
    : s.kind === 'monthly' ? t('每月$1日', s.day)
    : t('每隔$1天', s.everyDays);
  return `${when} ${s.time}, ${t('$1小时内完成', s.dueHours)}`;
}

export { describeSchedule, localDateOf };
