import { DAY_MINUTES } from '@ess/contract/pricing';

/** Every three hours; on a phone every six (every three overlapped at 390 px). */
const TICKS = [0, 3, 6, 9, 12, 15, 18, 21, 24];
const COMPACT_TICKS = [0, 6, 12, 18, 24];

/** A minute of the day as a left offset or width along a 24-hour bar. */
export const dayPct = (m: number) => `${(Math.min(Math.max(m, 0), DAY_MINUTES) / DAY_MINUTES) * 100}%`;

/** The hour labels under a 24-hour bar (the price bands' and the strategy's). A time axis reads left to right in every language. */
export function HourAxis({ compact }: { compact: boolean }) {
  return (
    <div dir="ltr" style={{ position: 'relative', height: 18, fontSize: 11, color: 'rgba(0,0,0,0.65)' }} aria-hidden>
      {(compact ? COMPACT_TICKS : TICKS).map((h) => (
        <span key={h} style={{ position: 'absolute', left: dayPct(h * 60), transform: h === 0 ? 'none' : h === 24 ? 'translateX(-100%)' : 'translateX(-50%)' }}>
          {`${String(h).padStart(2, '0')}:00`}
        </span>
      ))}
    </div>
  );
}

/** A legend's colour square. */
export const Swatch = ({ color }: { color: string }) => (
  <span style={{ display: 'inline-block', width: 12, height: 12, borderRadius: 2, background: color }} />
);
