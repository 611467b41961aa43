import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceTopic, type AlarmDictRecord, type AlarmRecord } from '@ess/contract';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newDevice, newSite, okData, seededCompanies, until } from '../../../test/factory.ts';
import { ingestOf } from '../telemetry/index.ts';

/**
 * Tiered threshold rules (issue 16 §6, decision 0033): several entries on one property and
 * operator, told apart by level; the most severe open one wins, escalation ends the lesser alarm,
 * falling back below the severe tier's clear value reopens the lesser tier whose own condition
 * still stands. Through the real ingest: reports published to the embedded broker.
 */
describe.each(dbTargets(import.meta.url))('tiered alarm rules on %s', (target) => {
  let t: TestApp;
  let mqtt: MqttClient;
  let site: { id: number; code: string };
  let pack: { id: number; code: string };
  let lesser: AlarmDictRecord;
  let severeId: number;
  let seq = 0;
  const base = Date.now() - 600_000;
  let step = 0;

  const post = <T>(path: string, body: unknown) => t.api.post<T>(path, t.adminToken, body);
  const ingest = () => ingestOf(t.ctx)!;
  /** A report of the pack's hottest cell, each one a second after the last (device time in the past). */
  const report = async (maxCellTemperature: number) => {
    const before = ingest().counters.storedReports;
    const ts = base + ++step * 1000;
    await mqtt.publishAsync(deviceTopic(site.code, pack.code, 'telemetry'), JSON.stringify({ ts, seq: ++seq, values: { maxCellTemperature } }), { qos: 1 });
    await until('the report to be stored', () => ingest().counters.storedReports > before);
    await ingest().flush();
    return ts;
  };
  const alarms = async () => (await okData(post<AlarmRecord[]>('/alarm/monitor/query/list', { deviceId: pack.id }))).sort((a, b) => a.id - b.id);
  const active = async () => (await alarms()).filter((a) => a.status === 'active');
  const tier = { productId: null, deviceType: 'batteryPack', kind: 'threshold', identifier: 'maxCellTemperature', operator: '>', alarmType: 'overLimit' } as const;

  beforeAll(async () => {
    t = await startTestApp(target, { INGEST_BATCH_MS: '20', LATEST_FLUSH_MS: '50', ALARM_SYNC_MS: '60000' });
    mqtt = await connectAsync(t.ctx.mqtt.url, { clientId: `tiers-test-${target}` });
    const { east } = await seededCompanies(t);
    site = await newSite(t, east.id);
    pack = await newDevice(t, site.id, { type: 'batteryPack' });
    await ingest().registry.refresh();
    // The seeded entry: cell temperature > 45 °C at level 3.
    const list = await okData(post<AlarmDictRecord[]>('/alarm/dict/query/list', { deviceType: 'batteryPack' }));
    lesser = list.find((d) => d.deviceType === 'batteryPack' && d.identifier === 'maxCellTemperature' && d.operator === '>')!;
    expect(lesser).toMatchObject({ threshold: 45, level: 3 });
  });
  afterAll(async () => {
    await mqtt?.endAsync();
    await t?.stop();
  });

  it('allows several entries on one property and operator, one per level, the more severe with the stricter threshold', async () => {
    // Same level again: a duplicate.
    const dup = await post('/alarm/dict/add', { ...tier, threshold: 50, clearValue: 48, level: 3, description: '重复' });
    expect(dup.status).toBe(406);
    expect(dup.body.errorCode).toBe('A0409');
    // More severe but not stricter (45 is not above the level-3 tier's 45): refused.
    const loose = await post('/alarm/dict/add', { ...tier, threshold: 45, clearValue: 43, level: 1, description: '单体温度严重过高' });
    expect(loose.status).toBe(406);
    expect(loose.body.tipMsg).toContain('等级越严重阈值应越严格');
    // The tiers: > 35 °C at level 3, > 45 °C at level 1.
    await okData(post('/alarm/dict/edit', { ...lesser, threshold: 35, clearValue: 33 }));
    severeId = (await okData(post<{ id: number }>('/alarm/dict/add', { ...tier, threshold: 45, clearValue: 43, level: 1, description: '电池包单体温度严重过高' }))).id;
    const tiers = (await okData(post<AlarmDictRecord[]>('/alarm/dict/query/list', { deviceType: 'batteryPack' })))
      .filter((d) => d.identifier === 'maxCellTemperature' && d.deviceType === 'batteryPack')
      .map((d) => [d.level, d.threshold]);
    expect(tiers.sort()).toEqual([[1, 45], [3, 35]]);
  });

  it('escalates: the lesser alarm ends (by escalation) and the severe one opens; the severe holds within its clear band', async () => {
    await report(30);
    expect(await alarms()).toHaveLength(0);
    const t1 = await report(38);
    const [first] = await active();
    expect(first).toMatchObject({ dictId: lesser.id, level: 3, triggerValue: 38, startedAt: new Date(t1).toISOString() });

    const t2 = await report(47);
    const all = await alarms();
    expect(all).toHaveLength(2);
    expect(all[0]).toMatchObject({ id: first!.id, status: 'ended', endReason: 'escalated', endedAt: new Date(t2).toISOString(), clearValue: 47 });
    expect(all[1]).toMatchObject({ dictId: severeId, status: 'active', level: 1, triggerValue: 47, endReason: null, startedAt: new Date(t2).toISOString() });

    // 44 is below the severe threshold but above its clear value (43): it stays, and the lesser does not reopen.
    await report(44);
    await report(46);
    expect((await active()).map((a) => a.dictId)).toEqual([severeId]);
    expect(await alarms()).toHaveLength(2);
  });

  it('falls back: below the severe clear value but still above the lesser tier, the severe ends and the lesser opens again', async () => {
    const t3 = await report(40);
    const all = await alarms();
    expect(all).toHaveLength(3);
    expect(all[1]).toMatchObject({ dictId: severeId, status: 'ended', endReason: null, endedAt: new Date(t3).toISOString(), clearValue: 40 });
    expect(all[2]).toMatchObject({ dictId: lesser.id, status: 'active', level: 3, triggerValue: 40, startedAt: new Date(t3).toISOString() });
    // Below the lesser clear value (33) everything has ended, nothing by escalation.
    await report(32);
    expect(await active()).toHaveLength(0);
    expect((await alarms())[2]).toMatchObject({ status: 'ended', endReason: null, clearValue: 32 });
  });

  it('a jump straight past both tiers opens only the severe one; a drop straight to normal ends it and opens nothing', async () => {
    await report(50);
    const opened = await active();
    expect(opened.map((a) => [a.dictId, a.level])).toEqual([[severeId, 1]]);
    await report(20);
    expect(await active()).toHaveLength(0);
    expect(await alarms()).toHaveLength(4);
  });

  it('a single-tier property still opens and clears on its own (no escalation)', async () => {
    // minCellVoltage < 2.9 (clear 3.0) at level 3: one tier.
    await mqtt.publishAsync(deviceTopic(site.code, pack.code, 'telemetry'), JSON.stringify({ ts: base + ++step * 1000, seq: ++seq, values: { minCellVoltage: 2.8, maxCellTemperature: 20 } }), { qos: 1 });
    await until('the low-voltage alarm', async () => (await active()).some((a) => a.code === 'minCellVoltage'));
    await report(20);
    expect((await active()).map((a) => a.code)).toEqual(['minCellVoltage']);
  });
});
