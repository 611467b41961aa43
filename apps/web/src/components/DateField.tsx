import { DatePicker } from 'antd';
import dayjs from 'dayjs';

/** A calendar date kept as YYYY-MM-DD text (the contract's date format). */
export function DateField({ id, value, onChange }: { id?: string; value?: unknown; onChange?: (v: string | null) => void }) {
  const d = typeof value === 'string' && value ? dayjs(value) : null;
  return <DatePicker id={id} value={d?.isValid() ? d : null} format="YYYY-MM-DD" style={{ width: '100%' }} onChange={(v) => onChange?.(v ? v.format('YYYY-MM-DD') : null)} />;
}
