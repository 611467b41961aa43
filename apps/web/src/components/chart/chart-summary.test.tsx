import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useI18nStore } from '../../platform/i18n/translate.ts';
import { chartSummary, summariseSeries } from './chart-summary.ts';
import { EChart } from './EChart.tsx';

const LINE = {
  xAxis: { type: 'time' },
  series: [
    { type: 'line', name: '功率', data: [[1, 10], [2, -5.5], [3, null], [4, 1234.567]] },
    { type: 'bar', name: '电量', data: [{ value: 3 }, { value: '7' }, 2] },
  ],
};

// The chart loads ECharts on first draw; loaded here first, so no import is still on its way when the
// file ends (on a busy machine one arrived after the environment was torn down: an error of the run).
beforeAll(async () => {
  await import('./echarts-setup.ts');
});

afterEach(() => {
  cleanup();
  useI18nStore.setState({ locale: 'zh-CN', pack: new Map() });
});

describe('a chart in words', () => {
  it('summarises each series: points with a value, lowest, highest, last; a pie by its slices', () => {
    expect(summariseSeries(LINE)).toEqual([
      { name: '功率', count: 3, min: -5.5, max: 1234.567, last: 1234.567 },
      { name: '电量', count: 3, min: 2, max: 7, last: 2 },
    ]);
    expect(summariseSeries({ series: { type: 'pie', name: '状态', data: [{ name: '在线', value: 5 }, { name: '离线', value: 1 }] } })).toEqual([
      { name: '状态', count: 2, slices: [{ name: '在线', value: 5 }, { name: '离线', value: 1 }] },
    ]);
  });

  it('reads in the language pack with the locale’s numbers, and says so when there is no data', () => {
    const pack = new Map([['$1：$2 个数据点，最小 $3，最大 $4，最后 $5', '$1: $2 data points, lowest $3, highest $4, last $5'], ['暂无数据', 'No data']]);
    const t = (s: string, ...a: (string | number)[]) => (pack.get(s) ?? s).replace(/\$(\d)/g, (_, i: string) => String(a[Number(i) - 1]));
    expect(chartSummary(LINE, t, 'de-DE')).toBe('功率: 3 data points, lowest -5,5, highest 1.234,57, last 1.234,57; 电量: 3 data points, lowest 2, highest 7, last 2');
    expect(chartSummary({ series: [{ type: 'line', name: '功率', data: [] }] }, t, 'en-US')).toBe('No data');
  });

  it('the chart is an image named by its title and described by its data, updated with the option', () => {
    const { rerender } = render(<EChart option={LINE} label="今日功率" testId="c" />);
    const img = screen.getByRole('img', { name: '今日功率' });
    const described = document.getElementById(img.getAttribute('aria-describedby') ?? '');
    expect(described?.textContent).toBe('功率：3 个数据点，最小 -5.5，最大 1,234.57，最后 1,234.57; 电量：3 个数据点，最小 2，最大 7，最后 2');
    rerender(<EChart option={{ series: [{ type: 'line', name: '功率', data: [[1, 42]] }] }} label="今日功率" testId="c" />);
    expect(screen.getByTestId('c-summary').textContent).toBe('功率：1 个数据点，最小 42，最大 42，最后 42');
  });
});
