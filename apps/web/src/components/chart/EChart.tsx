import { Spin } from 'antd';
import type { ECharts, EChartsCoreOption } from 'echarts/core';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useLocale, useT } from '../../platform/i18n/useT.ts';
import { chartSummary } from './chart-summary.ts';

export type ChartOption = EChartsCoreOption;

export interface EChartProps {
  option: ChartOption;
  height?: number | string;
  /** Accessible name of the chart (source text already translated). */
  label: string;
  /** Components replaced on each update instead of merged (the rest, e.g. the zoom window, is kept). */
  replace?: readonly string[];
  testId?: string;
}

const REPLACED = ['series', 'graphic'] as const;
const loadEcharts = () => import('./echarts-setup.ts').then((m) => m.echarts);

/**
 * The charts of a page take turns to be created and drawn, each in a task of its own: a page's
 * charts were all created in one go when ECharts had loaded, and their first draws ran in the
 * same animation frame, one long task that blocked input (Total Blocking Time, worst on a phone).
 */
let lastTurn: Promise<void> = Promise.resolve();
function chartTurn(): Promise<void> {
  lastTurn = lastTurn.then(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
  return lastTurn;
}

/**
 * Resolves once the browser has painted the frame after this call: ECharts (its own chunk, the
 * largest of the console) is fetched only after the page's text around the chart is on screen,
 * so it does not hold up the page's first draw of its figures.
 */
const afterNextPaint = () =>
  new Promise<void>((resolve) => {
    if (typeof requestAnimationFrame !== 'function') resolve();
    else requestAnimationFrame(() => setTimeout(resolve, 0));
  });

/**
 * The one ECharts wrapper: loads ECharts on first use (its own chunk), draws on a canvas, follows
 * its box size and applies each new option as an update, so live data does not reset the zoom.
 * The canvas says nothing to a screen reader: the chart is an image named by its title (`label`)
 * and described by its data in words (chart-summary.ts), kept up to date with the option.
 */
export function EChart({ option, height = 320, label, replace = REPLACED, testId }: EChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | null>(null);
  const [ready, setReady] = useState(false);
  // The option to draw first (the latest one when the chart's turn comes), and the one drawn.
  const latest = useRef({ option, replace });
  const drawn = useRef<ChartOption | null>(null);
  const t = useT();
  const locale = useLocale();
  const summaryId = useId();
  const summary = useMemo(() => chartSummary(option, t, locale), [option, t, locale]);

  useEffect(() => {
    let disposed = false;
    let observer: ResizeObserver | null = null;
    void afterNextPaint().then(loadEcharts).then(async (echarts) => {
      await chartTurn();
      const el = box.current;
      if (disposed || !el) return;
      chart.current = echarts.init(el, undefined, { renderer: 'canvas' });
      // The first draw now, in this chart's turn (a lazy update would draw in the next animation
      // frame, together with the other charts').
      const first = latest.current;
      chart.current.setOption(first.option, { replaceMerge: [...first.replace] });
      drawn.current = first.option;
      if (typeof ResizeObserver !== 'undefined') {
        observer = new ResizeObserver(() => chart.current?.resize());
        observer.observe(el);
      }
      setReady(true);
    });
    return () => {
      disposed = true;
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    latest.current = { option, replace };
    if (!ready || drawn.current === option) return;
    drawn.current = option;
    chart.current?.setOption(option, { replaceMerge: [...replace], lazyUpdate: true });
  }, [ready, option, replace]);

  return (
    <div style={{ position: 'relative', width: '100%', height }}>
      <div ref={box} role="img" aria-label={label} aria-describedby={summaryId} data-testid={testId} style={{ width: '100%', height: '100%' }} />
      <p id={summaryId} className="ess-visually-hidden" data-testid={testId ? `${testId}-summary` : undefined}>
        {summary}
      </p>
      {!ready && (
        <div style={{ position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
          <Spin />
        </div>
      )}
    </div>
  );
}
