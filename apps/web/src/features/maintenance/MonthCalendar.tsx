import { Badge, Button, Space, Typography } from 'antd';
import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useLocale, useT } from '../../platform/i18n/useT.ts';

/** One day of the calendar: work due that day, done that day, and of the due ones still open past their time. */
export interface CalendarDay {
  date: string;
  due: number;
  done: number;
  overdue: number;
}

/** The weeks (Monday first) covering a month, as `YYYY-MM-DD` dates, null outside the month. */
export function monthWeeks(month: string): (string | null)[][] {
  const first = dayjs(`${month}-01`);
  const lead = (first.day() + 6) % 7;
  const cells: (string | null)[] = [...Array<null>(lead).fill(null)];
  for (let d = 0; d < first.daysInMonth(); d++) cells.push(first.add(d, 'day').format('YYYY-MM-DD'));
  while (cells.length % 7) cells.push(null);
  const weeks: (string | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}

/** Weekday names Monday to Sunday in the user's language. */
function weekdayNames(locale: string): string[] {
  const fmt = new Intl.DateTimeFormat(locale, { weekday: 'short' });
  // 2024-01-01 was a Monday.
  return Array.from({ length: 7 }, (_, i) => fmt.format(new Date(Date.UTC(2024, 0, 1 + i, 12))));
}

/**
 * A month of due and done work per day (the inspection overview's calendar): a grid of weeks, each
 * day with its counts; a day opens its orders.
 */
export function MonthCalendar({
  month, days, today, onMonth, onDay,
}: {
  /** `YYYY-MM`. */
  month: string;
  days: readonly CalendarDay[];
  today: string;
  onMonth: (month: string) => void;
  onDay?: (date: string) => void;
}) {
  const t = useT();
  const locale = useLocale();
  const byDate = new Map(days.map((d) => [d.date, d]));
  const shift = (n: number) => onMonth(dayjs(`${month}-01`).add(n, 'month').format('YYYY-MM'));
  const title = new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long' }).format(new Date(`${month}-15T12:00:00Z`));
  return (
    <div className="ess-month-calendar" data-testid="month-calendar">
      <Space className="ess-month-calendar-head">
        <Button size="small" icon={<LeftOutlined />} aria-label={t('上个月')} onClick={() => shift(-1)} />
        <Typography.Text strong data-testid="calendar-month">{title}</Typography.Text>
        <Button size="small" icon={<RightOutlined />} aria-label={t('下个月')} onClick={() => shift(1)} />
      </Space>
      <table className="ess-month-grid">
        <thead>
          <tr>
            {weekdayNames(locale).map((w) => (
              <th key={w} scope="col">{w}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {monthWeeks(month).map((week, i) => (
            <tr key={i}>
              {week.map((date, j) => {
                if (!date) return <td key={j} className="ess-month-empty" />;
                const d = byDate.get(date);
                return (
                  <td key={date} className={date === today ? 'ess-month-today' : undefined} data-date={date}>
                    <button type="button" className="ess-month-day" onClick={() => onDay?.(date)} title={t('$1：应完成 $2，已完成 $3，逾期 $4', date, d?.due ?? 0, d?.done ?? 0, d?.overdue ?? 0)}>
                      <span className="ess-month-date">{Number(date.slice(8))}</span>
                      {d && d.due > 0 && <Badge color="blue" text={t('应 $1', d.due)} />}
                      {d && d.done > 0 && <Badge color="green" text={t('完 $1', d.done)} />}
                      {d && d.overdue > 0 && <Badge color="red" text={t('逾 $1', d.overdue)} />}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
