import { DatePicker, InputNumber } from 'antd';
import type { Translate } from './crud.types.ts';

interface ItemProps {
  id?: string;
  value?: never;
  onChange?: (v: unknown) => void;
  t: Translate;
}

/** A search field over a time range (loaded only by lists that have one: the date picker is large). */
export function DateTimeRangeFilter({ t, ...item }: ItemProps) {
  return <DatePicker.RangePicker {...item} showTime style={{ width: '100%' }} placeholder={[t('开始时间'), t('结束时间')]} />;
}

/** A search field over calendar dates (readings by station-local day): no time of day. */
export function DateRangeFilter({ t, ...item }: ItemProps) {
  return <DatePicker.RangePicker {...item} style={{ width: '100%' }} placeholder={[t('开始日期'), t('结束日期')]} />;
}

/** A numeric search field (loaded only by lists that have one). */
export function NumberFilter({ t, ...item }: ItemProps) {
  return <InputNumber {...item} style={{ width: '100%' }} placeholder={t('请输入')} />;
}
