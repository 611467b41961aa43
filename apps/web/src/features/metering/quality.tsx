import { QUALITY_FLAG_LABELS, QUALITY_FLAGS, type QualityFlag } from '@ess/contract/meter-reading';
import { Space, Tag } from 'antd';
import type { EnumOption, Translate } from '../../components/crud/index.ts';

/**
 * Tag colours of the quality flags, best to worst (solid, white text: each at least 4.5:1 against
 * white): measured green, estimated blue, spike clamped orange, meter replaced purple, missing red.
 */
export const QUALITY_COLOURS: Record<QualityFlag, string> = {
  measured: '#237804',
  estimated: '#0958d9',
  spike_clamped: '#ad4e00',
  meter_replaced: '#531dab',
  missing: '#a8071a',
};

/** A solid tag colour with white text. */
export const solidTag = (colour: string) => ({ color: colour, style: { color: '#fff', marginInlineEnd: 0 } });

export const QUALITY_OPTIONS: EnumOption[] = QUALITY_FLAGS.map((v) => ({ value: v, label: QUALITY_FLAG_LABELS[v] }));

/** One quality flag as a coloured tag. */
export function QualityTag({ flag, t }: { flag: QualityFlag; t: Translate }) {
  return (
    <Tag {...solidTag(QUALITY_COLOURS[flag])} data-quality={flag}>
      {t(QUALITY_FLAG_LABELS[flag])}
    </Tag>
  );
}

/** Several flags (a register's, a period's) as tags; "measured" alone when there are none. */
export function QualityTags({ flags, t }: { flags: readonly QualityFlag[]; t: Translate }) {
  const shown = flags.length ? [...new Set(flags)] : (['measured'] as const);
  return (
    <Space size={4} wrap>
      {shown.map((f) => (
        <QualityTag key={f} flag={f} t={t} />
      ))}
    </Space>
  );
}
