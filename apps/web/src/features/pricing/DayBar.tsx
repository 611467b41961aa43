import { PRICE_PERIODS } from '@ess/contract/constants';
import { PRICE_PERIOD_LABELS, minutesOf, type PriceBand, type PricePeriod } from '@ess/contract/pricing';
import { Space, Tooltip, Typography } from 'antd';
import { dayPct, HourAxis, Swatch } from '../../components/DayAxis.tsx';
import { useT } from '../../platform/i18n/useT.ts';
import { formatPrice, perKwh } from './pricing.options.ts';
import { PERIOD_COLORS } from '../../components/options/levels.ts';


/**
 * A station-local day as a bar of coloured bands, one colour per period type; hovering (or
 * focusing) a band shows its times, type and price. Stretches no band covers show hatched.
 */
export function DayBar({
  bands, prices, currency, height = 36, legend = true, label,
}: {
  bands: readonly PriceBand[];
  prices?: Partial<Record<PricePeriod, number | null>>;
  currency?: string;
  height?: number;
  legend?: boolean;
  /** Accessible name of the bar. */
  label: string;
}) {
  const t = useT();
  const sorted = [...bands].sort((a, b) => minutesOf(a.start) - minutesOf(b.start));
  const pct = dayPct;
  const priceText = (p: PricePeriod) => {
    const v = prices?.[p];
    return v === null || v === undefined ? t('未设置电价') : `${formatPrice(v)} ${currency ? perKwh(currency) : ''}`.trim();
  };
  const used = PRICE_PERIODS.filter((p) => sorted.some((b) => b.period === p));
  const compact = height < 24;
  return (
    <div>
      <div
        role="list"
        aria-label={label}
        data-testid="day-bar"
        dir="ltr"
        style={{
          position: 'relative',
          height,
          borderRadius: 4,
          overflow: 'hidden',
          background: 'repeating-linear-gradient(45deg, #f0f0f0, #f0f0f0 6px, #fff 6px, #fff 12px)',
          border: '1px solid #d9d9d9',
        }}
      >
        {sorted.map((b, i) => {
          const s = minutesOf(b.start);
          const e = minutesOf(b.end);
          if (e <= s) return null;
          const tip = `${b.start}–${b.end} ${t(PRICE_PERIOD_LABELS[b.period])} ${priceText(b.period)}`;
          return (
            <Tooltip key={`${b.start}-${i}`} title={tip}>
              <div
                data-period={b.period}
                role="listitem"
                aria-label={tip}
                tabIndex={0}
                style={{
                  position: 'absolute',
                  left: pct(s),
                  width: pct(e - s),
                  top: 0,
                  bottom: 0,
                  background: PERIOD_COLORS[b.period],
                  borderRight: '1px solid rgba(255,255,255,0.6)',
                  color: '#fff',
                  fontSize: 12,
                  display: 'flex',
                  alignItems: 'center',
                  justifyContent: 'center',
                  overflow: 'hidden',
                  whiteSpace: 'nowrap',
                  cursor: 'default',
                }}
              >
                {!compact && e - s >= 90 ? t(PRICE_PERIOD_LABELS[b.period]) : ''}
              </div>
            </Tooltip>
          );
        })}
      </div>
      <HourAxis compact={compact} />
      {legend && (
        <Space size={[16, 4]} wrap style={{ marginTop: 4 }}>
          {used.map((p) => (
            <Space key={p} size={6}>
              <Swatch color={PERIOD_COLORS[p]} />
              <Typography.Text>{t(PRICE_PERIOD_LABELS[p])}</Typography.Text>
              <Typography.Text type="secondary">{priceText(p)}</Typography.Text>
            </Space>
          ))}
        </Space>
      )}
    </div>
  );
}
