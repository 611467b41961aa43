import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cell, cellNumber, cellText, cellYesNo, importRefusal } from '@ess/contract';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { AppError } from '../http/errors.ts';
import { importSheet } from './import.ts';
import type { XlsxSheet } from './xlsx.ts';

/** importSheet on a real database (PGlite): header checks, every bad cell listed, all or nothing. */
describe('importSheet', () => {
  let t: TestApp;
  const columns = [
    { key: 'code', header: '编码', required: true },
    { key: 'size', header: '大小', required: true },
    { key: 'colour', header: '颜色' },
    { key: 'active', header: '启用' },
  ];
  const rowSchema = z.object({
    code: cellText(8, '编码'),
    size: cellNumber(1, 100, true),
    colour: cell((s, bad) => (!s ? null : ['red', 'blue'].includes(s) ? s : bad('须为 red、blue 之一'))),
    active: cellYesNo(true),
  });
  type Row = z.output<typeof rowSchema>;
  const sheet = (rows: Record<string, string>[], headers = ['编码', '大小', '颜色', '启用']): XlsxSheet => ({
    headers,
    rows: rows.map((cells, i) => ({ row: i + 2, cells })),
  });
  const stored = async () =>
    (await t.ctx.db.execute<{ code: string }>(sql`select code from import_probe order by code`)).rows.map((r) => r.code);
  const run = (s: XlsxSheet, onRefused?: () => Promise<{ historyId: number }>) =>
    importSheet(t.ctx.db, {
      sheet: s, columns, maxRows: 4, rowSchema, ...(onRefused ? { onRefused } : {}),
      check: async (tx, rows, refuse) => {
        const taken = new Set((await tx.execute<{ code: string }>(sql`select code from import_probe`)).rows.map((r) => r.code));
        for (const r of rows) if (taken.has(r.data.code)) refuse(r.row, '编码', `编码 ${r.data.code} 已存在`);
        return rows.map((r) => r.data);
      },
      write: async (tx, rows: Row[]) => {
        for (const r of rows) await tx.execute(sql`insert into import_probe (code, size) values (${r.code}, ${r.size})`);
        return rows.length;
      },
    });
  const refusalOf = async (p: Promise<unknown>) => {
    const err = await p.then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    const e = err as AppError;
    expect(e.code).toBe('A0406');
    return { tip: e.message, report: importRefusal.parse(JSON.parse(e.detail ?? '')) };
  };

  beforeAll(async () => {
    t = await startTestApp('pglite');
    await t.ctx.db.execute(sql`create table import_probe (code text primary key, size int not null)`);
  });
  afterAll(async () => t?.stop());

  it('stores a good file whole', async () => {
    expect(await run(sheet([{ 编码: 'A', 大小: '1' }, { 编码: 'B', 大小: '2', 颜色: 'red', 启用: '否' }]))).toBe(2);
    expect(await stored()).toEqual(['A', 'B']);
  });

  it('lists a bad cell in each of several columns by row and column, and writes none of the good rows', async () => {
    const { tip, report } = await refusalOf(run(sheet([
      { 编码: 'C', 大小: '3' },
      { 编码: '', 大小: '0', 颜色: 'green' },
      { 编码: 'TOO-LONG-CODE', 大小: '5', 启用: 'maybe' },
      { 编码: 'A', 大小: '4' },
    ]), () => Promise.resolve({ historyId: 7 })));
    expect(report.historyId).toBe(7);
    expect(report.errors).toEqual([
      { row: 3, column: '编码', message: '编码不能为空' },
      { row: 3, column: '大小', message: '须为整数，范围 1–100' },
      { row: 3, column: '颜色', message: '须为 red、blue 之一' },
      { row: 4, column: '编码', message: '不能超过8个字符' },
      { row: 4, column: '启用', message: '须为“是”或“否”' },
      { row: 5, column: '编码', message: '编码 A 已存在' },
    ]);
    expect(tip).toBe('导入失败：第3行「编码」编码不能为空（共6处错误）');
    expect(await stored()).toEqual(['A', 'B']);
  });

  it('refuses a check failure after the schema passed: the transaction is rolled back', async () => {
    const { report } = await refusalOf(run(sheet([{ 编码: 'D', 大小: '1' }, { 编码: 'B', 大小: '1' }])));
    expect(report).toEqual({ errors: [{ row: 3, column: '编码', message: '编码 B 已存在' }] });
    expect(await stored()).toEqual(['A', 'B']);
  });

  it('checks the header: unknown, repeated and missing columns, no rows, too many rows', async () => {
    const cols = await refusalOf(run(sheet([{ 编码: 'E' }], ['编码', '形状', '形状'])));
    expect(cols.report.errors).toEqual(expect.arrayContaining([
      { row: 1, column: '形状', message: '不是可导入的列' },
      { row: 1, column: '形状', message: '列名重复' },
      { row: 1, column: '大小', message: '缺少此列' },
    ]));
    expect((await refusalOf(run(sheet([])))).report.errors).toEqual([{ row: 0, column: '', message: '文件中没有数据行' }]);
    const many = Array.from({ length: 5 }, (_, i) => ({ 编码: `M${i}`, 大小: '1' }));
    expect((await refusalOf(run(sheet(many)))).report.errors).toEqual([{ row: 0, column: '', message: '一次最多导入4行' }]);
    expect(await stored()).toEqual(['A', 'B']);
  });
});
