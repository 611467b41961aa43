import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoFleet } from '@ess/simulator';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { strategy } from '../../db/schema/strategy.ts';
import { seedStrategyDemo } from './index.ts';
import { windowsFromTou } from './strategy.demo.ts';

describe('demo strategies', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', { SEED_DEMO: 'true' });
  });
  afterAll(async () => t?.stop());

  it('follows the prices: charge in the valleys, discharge at peak and tip, idle at flat', () => {
    const sh = demoFleet().stations.find((s) => s.code === 'SH01')!;
    expect(windowsFromTou(sh.touSchedule, 200).map((w) => `${w.start}-${w.end} ${w.mode} ${w.powerKw}`)).toEqual([
      '00:00-06:00 charge 200', '06:00-08:00 idle 0', '08:00-11:00 discharge 200', '11:00-13:00 charge 200', '13:00-15:00 idle 0',
      '15:00-22:00 discharge 200', '22:00-24:00 charge 200',
    ]);
    expect(windowsFromTou(sh.touSchedule, 200, true).filter((w) => w.mode === 'discharge').map((w) => `${w.start}-${w.end}`)).toEqual(['19:00-21:00']);
  });

  it('gives every demo station a valid strategy marked for synchronisation, once', async () => {
    const stations = demoFleet().stations;
    expect(await seedStrategyDemo(t.ctx, stations)).toBe(stations.length);
    const rows = await t.ctx.db.select().from(strategy);
    expect(rows).toHaveLength(stations.length);
    for (const r of rows) {
      expect(r.syncState).toBe('pending');
      expect(r.syncedHash).toMatch(/^[0-9a-f]{16}$/);
      expect(r.schedules.map((s) => s.name)).toEqual(['工作日', '周末']);
    }
    expect(await seedStrategyDemo(t.ctx, stations)).toBe(0);
  });
});
