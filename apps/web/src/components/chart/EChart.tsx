import { Spin } from 'antd';
import type { ECharts, EChartsCoreOption } from 'echarts/core';
import { useEffect, useRef, useState } from 'react';

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
 * The one ECharts wrapper: loads ECharts on first use (its own chunk), draws on a canvas, follows
 * its box size and applies each new option as an update, so live data does not reset the zoom.
 */
export function EChart({ option, height = 320, label, replace = REPLACED, testId }: EChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | null>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let disposed = false;
    let observer: ResizeObserver | null = null;
    void loadEcharts().then((echarts) => {
      const el = box.current;
      if (disposed || !el) return;
      chart.current = echarts.init(el, undefined, { renderer: 'canvas' });
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
    if (ready) chart.current?.setOption(option, { replaceMerge: [...replace], lazyUpdate: true });
  }, [ready, option, replace]);

  return (
    <div style={{ position: 'relative', width: '100%', height }}>
      <div ref={box} role="img" aria-label={label} data-testid={testId} style={{ width: '100%', height: '100%' }} />
      {!ready && (
        <div style={{ position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
          <Spin />
        </div>
      )}
    </div>
  );
}
