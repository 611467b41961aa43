import { STRATEGY_MODE_LABELS, type StrategyMode, type StrategyWindow } from '@ess/contract/strategy';
import { minutesOf } from '@ess/contract/pricing';
import { Grid, Space, Tooltip, Typography } from 'antd';
import { formatNumber } from '../../components/number-format.ts';
import { dayPct, HourAxis, Swatch } from '../../components/DayAxis.tsx';
import { useT } from '../../platform/i18n/useT.ts';

export const MODE_COLORS: Record<StrategyMode, string> = { charge: '#237804', discharge: '#ad4e00', idle: '#595959' };

/**
 * A schedule's day as a bar of its windows, coloured by mode (charge, discharge, idle) with the
 * set-point; stretches no window covers show hatched, overlapping windows are drawn over each other.
 */
export function StrategyBar({ windows, label }: { windows: readonly StrategyWindow[]; label: string }) {
  const t = useT();
  const wide = Grid.useBreakpoint().md !== false;
  const pct = dayPct;
  const sorted = [...windows].sort((a, b) => minutesOf(a.start) - minutesOf(b.start));
  return (
    <div>
      <div
        role="list"
        aria-label={label}
        data-testid="strategy-bar"
        dir="ltr"
        style={{
          position: 'relative', height: 36, borderRadius: 4, overflow: 'hidden', border: '1px solid #d9d9d9',
          background: 'repeating-linear-gradient(45deg, #f0f0f0, #f0f0f0 6px, #fff 6px, #fff 12px)',
        }}
      >
        {sorted.map((w, i) => {
          const s = minutesOf(w.start);
          const e = minutesOf(w.end);
          if (e <= s) return null;
          const power = w.mode === 'idle' ? '' : ` ${formatNumber(w.powerKw)} kW`;
          const soc = w.targetSoc === null ? '' : ` → SOC ${formatNumber(w.targetSoc)}%`;
          const tip = `${w.start}–${w.end} ${t(STRATEGY_MODE_LABELS[w.mode])}${power}${soc}`;
          return (
            <Tooltip key={`${w.start}-${i}`} title={tip}>
              <div
                role="listitem"
                aria-label={tip}
                tabIndex={0}
                data-mode={w.mode}
                style={{
                  position: 'absolute', left: pct(s), width: pct(e - s), top: 0, bottom: 0, background: MODE_COLORS[w.mode],
                  borderRight: '1px solid rgba(255,255,255,0.7)', color: '#fff', fontSize: 12, display: 'flex', alignItems: 'center',
                  justifyContent: 'center', overflow: 'hidden', whiteSpace: 'nowrap',
                }}
              >
                {e - s >= 120 ? `${t(STRATEGY_MODE_LABELS[w.mode])}${power}` : ''}
              </div>
            </Tooltip>
          );
        })}
      </div>
      <HourAxis compact={!wide} />
      <Space size={[16, 4]} wrap>
        {(Object.keys(MODE_COLORS) as StrategyMode[]).map((m) => (
          <Space key={m} size={6}>
            <Swatch color={MODE_COLORS[m]} />
            <Typography.Text>{t(STRATEGY_MODE_LABELS[m])}</Typography.Text>
          </Space>
        ))}
      </Space>
    </div>
  );
}
