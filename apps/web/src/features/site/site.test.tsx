import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Form } from 'antd';
import { siteAdd, siteKeyValueBody } from '@ess/contract/site';
import { DEFAULT_LOCALE, LOCALES } from '@ess/contract/constants';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { validateWith, type Translate } from '../../components/crud/index.ts';
import { useI18nStore } from '../../platform/i18n/translate.ts';
import { readPack } from '../../test/packs.ts';
import { envelope, json, mockFetch } from '../../test/http.ts';
import { SitePicker as UserSitePicker } from '../system/SitePicker.tsx';
import { applyBindings, cleanSvg, elementIdAt, formatValue, propertyOf, type DeviceRef, type LatestRef } from './circuit.model.ts';
import { keyValueBody } from './SiteSetPage.tsx';
import { siteBody, siteResource } from './site.resource.tsx';
import { cabinetResource } from './cabinet.resource.tsx';
import { callbackExecResource, paramResource } from './product-config.resource.tsx';
import { pluralForms } from '@ess/contract/pack-text';

vi.setConfig({ testTimeout: 20_000 });
beforeEach(() => useI18nStore.setState({ locale: 'zh-CN', pack: new Map() }));
afterEach(cleanup);

const t: Translate = (s, ...args) => s.replace(/\$(\d)/g, (_m, i: string) => String(args[Number(i) - 1]));
const labels = Object.fromEntries((siteResource.form!.fields as { name: string; label: string }[]).map((f) => [f.name, f.label]));
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe('site form', () => {
  const values = { companyId: 2, name: '一号站', code: 'S1', timeZone: 'Asia/Shanghai', currency: 'CNY', siteType: 'storage' as const, phone: '', investorShareRatio: 40 };

  it('sends every field, empty ones as null, and the id when editing', () => {
    const body = siteBody(values, 'edit', 9);
    expect(body).toMatchObject({ id: 9, companyId: 2, code: 'S1', phone: null, email: null, investorShareRatio: 40, serviceEndDate: null });
    expect(Object.keys(body)).toHaveLength(24);
    expect(siteBody(values, 'add')).not.toHaveProperty('id');
  });

  it('names the field of each §5 rule the contract refuses', () => {
    const check = (patch: Record<string, unknown>) => validateWith(siteAdd, siteBody({ ...values, ...patch }, 'add'), labels, t);
    expect(check({}).ok).toBe(true);
    const r1 = check({ commissioningDate: day(10), serviceEndDate: day(5) });
    expect(!r1.ok && r1.errors.fields.serviceEndDate).toEqual(['服务到期日期不能早于投运日期']);
    const r2 = check({ serviceEndDate: day(-3) });
    expect(!r2.ok && r2.errors.fields.serviceEndDate).toEqual(['服务到期日期不能早于今天']);
    const r3 = check({ investorShareRatio: 101 });
    expect(!r3.ok && r3.errors.fields.investorShareRatio).toEqual(['投资方分成比例应在0-100之间']);
    const r4 = check({ name: '', phone: 'abc', email: 'x@', code: 'a/b' });
    expect(!r4.ok && r4.errors.fields).toMatchObject({
      name: ['站点名称不能为空'], phone: ['手机号格式不正确'], email: ['邮箱格式不正确'], code: ['站点编码只能包含字母、数字、下划线和短横线'],
    });
    const r5 = check({ companyId: undefined });
    expect(!r5.ok && r5.errors.fields.companyId).toEqual(['所属公司不能为空']);
  });

  it('key values: every value, empty as null; depth of discharge within 0–100', () => {
    const body = keyValueBody(3, { installedCapacity: 215, pvWorkingMode: 'selfUse' });
    expect(body).toEqual({
      siteId: 3, installedCapacity: 215, installedPower: null, voltageLevel: null, transformerProtectionPower: null, depthOfDischarge: null,
      pvModuleCount: null, pilePower: null, pvWorkingMode: 'selfUse',
    });
    const bad = validateWith(siteKeyValueBody, { ...body, depthOfDischarge: 120 }, { depthOfDischarge: '放电深度' }, t);
    expect(!bad.ok && bad.errors.fields.depthOfDischarge).toEqual(['放电深度应在0-100之间']);
  });
});

describe('distribution diagram', () => {
  const devices = new Map<number, DeviceRef>([
    [1, { id: 1, code: 'SH01-EMS-01', name: 'EMS', type: 'ems' }],
    [2, { id: 2, code: 'SH01-PCS-01', name: 'PCS', type: 'pcs' }],
  ]);
  const latest = new Map<number, LatestRef>([
    [1, { id: 1, values: { activePower: -125.456, antiBackflow: true } }],
    [2, { id: 2, values: {} }],
  ]);

  it('sanitises again in the browser: no script, handler or foreignObject', () => {
    const out = cleanSvg('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script><foreignObject><b>x</b></foreignObject><text id="a" onclick="x()">v</text></svg>');
    expect(out).not.toMatch(/script|onload|onclick|foreignObject/i);
    expect(out).toContain('id="a"');
  });

  it('writes the latest values into bound text elements and titles of shapes; missing values show --', () => {
    const root = document.createElement('div');
    root.innerHTML = cleanSvg('<svg xmlns="http://www.w3.org/2000/svg"><text id="p">x</text><rect id="bus" width="9" height="9"/><text id="q">y</text><text id="r">z</text></svg>');
    const written = applyBindings(
      root,
      [
        { elementId: 'p', deviceId: 1, identifier: 'activePower' },
        { elementId: 'bus', deviceId: 1, identifier: 'antiBackflow' },
        { elementId: 'q', deviceId: 2, identifier: 'activePower' },
        { elementId: 'gone', deviceId: 1, identifier: 'activePower' },
      ],
      devices,
      latest,
      t,
    );
    expect(written).toEqual(['p', 'bus', 'q']);
    expect(root.querySelector('#p')!.textContent).toBe('-125.46 kW');
    expect(root.querySelector('#bus title')!.textContent).toBe('防逆流: 是');
    expect(root.querySelector('#q')!.textContent).toBe('--');
    expect(root.querySelector('#r')!.textContent).toBe('z');
  });

  it('labels enumeration values and finds the element id under a click', () => {
    const state = propertyOf('pcs', 'runState') ?? propertyOf('pcs', 'state');
    if (state?.enumValues?.length) expect(formatValue(state.enumValues[0]!.value, state, t)).toBe(state.enumValues[0]!.label);
    expect(formatValue(3, undefined, t)).toBe('3');
    const root = document.createElement('div');
    root.innerHTML = '<svg><g id="outer"><rect/></g></svg>';
    expect(elementIdAt(root.querySelector('rect'), root)).toBe('outer');
    expect(elementIdAt(root.querySelector('svg'), root)).toBeNull();
  });
});

describe('station access of the user form', () => {
  it('offers the stations of the chosen company (configure/site/query/list) and shows the count', async () => {
    const { calls } = mockFetch((c) =>
      c.url.endsWith('/configure/site/query/list')
        ? json(envelope([{ id: 7, name: '上海站', code: 'SH01' }, { id: 8, name: '柏林站', code: 'BE01' }]))
        : json(envelope(null), 404),
    );
    const onChange = vi.fn<(ids: number[]) => void>();
    function Host() {
      const [form] = Form.useForm();
      return (
        <Form form={form} initialValues={{ companyId: 2 }}>
          <Form.Item name="companyId" hidden><input /></Form.Item>
          <UserSitePicker form={form} value={[7]} onChange={onChange} id="sites" />
        </Form>
      );
    }
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(<QueryClientProvider client={client}><Host /></QueryClientProvider>);
    expect(await screen.findByText('已选 1 个站点')).toBeTruthy();
    // The picker asks for the stations of the form's company.
    const bodies = () => calls.filter((c) => c.url.endsWith('/configure/site/query/list')).map((c) => JSON.parse(c.init.body as string) as unknown);
    await waitFor(() => expect(bodies()).toContainEqual({ companyId: 2 }));
    fireEvent.mouseDown(screen.getByRole('combobox'));
    expect((await screen.findAllByText('上海站 (SH01)')).length).toBeGreaterThan(0);
    fireEvent.click(await screen.findByText('柏林站 (BE01)'));
    expect(onChange).toHaveBeenLastCalledWith([7, 8]);
  });
});

describe.each(LOCALES.filter((l) => l === 'en-US' || l === 'ar-EG'))('%s pack for the configuration screens', (locale) => {
  const pack = readPack(locale);
  it('translates every title, label, filter and option the resources declare, and keeps $ placeholders', () => {
    const texts = new Set<string>();
    for (const r of [siteResource, cabinetResource, paramResource, callbackExecResource] as unknown as { name: string; columns: { title: string; options?: { label: string; literal?: boolean }[] }[]; filters?: { title: string; options?: { label: string; literal?: boolean }[] }[]; form?: { fields: { label: string; help?: unknown; options?: { label: string; literal?: boolean }[] }[] } }[]) {
      texts.add(r.name);
      for (const x of [...r.columns, ...(r.filters ?? []), ...(r.form?.fields ?? [])]) {
        texts.add('title' in x ? x.title : x.label);
        for (const o of x.options ?? []) if (!o.literal) texts.add(o.label);
        if ('help' in x && typeof x.help === 'string') texts.add(x.help);
      }
    }
    const missing = [...texts].filter((s) => !pack[s]);
    expect(missing).toEqual([]);
    const src = readFileSync(join(import.meta.dirname, 'CircuitPage.tsx'), 'utf8');
    for (const m of src.matchAll(/t\('([^']+)'/g)) expect(pack[m[1]!], m[1]).toBeTruthy();
    for (const [k, v] of Object.entries(pack)) expect((pluralForms(v)?.other ?? v).match(/\$\d/g)?.sort() ?? [], k).toEqual(k.match(/\$\d/g)?.sort() ?? []);
  });
  it('is not the default locale', () => expect(locale).not.toBe(DEFAULT_LOCALE));
});
