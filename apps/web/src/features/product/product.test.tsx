import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { DEFAULT_LOCALE, LOCALES } from '@ess/contract/constants';
import { propertyAdd, propertyEdit, templateAdd } from '@ess/contract/product';
import { describe, expect, it } from 'vitest';
import type { EnumOption, FieldDef, FilterDef, ResourceDef } from '../../components/crud/index.ts';
import { readPack } from '../../test/packs.ts';
import { EnumValuesEditor } from './EnumValuesEditor.tsx';
import { commandResource, eventResource, productResource, propertyResource, staticResource } from './product.resource.tsx';
import { templateResource } from './template.resource.tsx';

type AnyResource = ResourceDef<{ id: number }, Record<string, unknown>, unknown>;
const RESOURCES = [productResource, propertyResource(1), eventResource(1), commandResource(1), staticResource(1), templateResource] as unknown as AnyResource[];

function declaredTexts(): string[] {
  const out = new Set<string>();
  const options = (o?: readonly EnumOption[]) => o?.forEach((x) => !x.literal && out.add(x.label));
  for (const r of RESOURCES) {
    out.add(r.name);
    for (const c of r.columns) {
      out.add(c.title);
      options(c.options);
    }
    for (const f of (r.filters ?? []) as FilterDef[]) {
      out.add(f.title);
      options(f.options);
    }
    for (const f of (r.form?.fields ?? []) as FieldDef<Record<string, unknown>>[]) {
      out.add(f.label);
      options(f.options);
      const help = typeof f.help === 'function' ? f.help('add') : f.help;
      if (help) out.add(help);
    }
  }
  return [...out];
}

describe('product resources', () => {
  it('nested lists carry their product and nested forms send it on add only', () => {
    const def = propertyResource(42);
    expect(def.fixedFilters).toEqual({ productId: 42 });
    const values = { identifier: 'dcPower', name: '直流功率', dataType: 'float', unit: 'kW', enumValues: [{ value: 1, label: 'x' }], cumulative: true, writable: false, min: null, max: null, sort: 0 };
    const add = def.form!.toBody!(values as never, 'add');
    expect(add).toMatchObject({ productId: 42, enumValues: null, cumulative: true });
    expect(propertyAdd.safeParse(add).success).toBe(true);
    const edit = def.form!.toBody!({ ...values, dataType: 'string' } as never, 'edit', 7);
    expect(edit).toMatchObject({ id: 7, cumulative: false, min: null });
    expect(edit).not.toHaveProperty('productId');
    expect(propertyEdit.safeParse(edit).success).toBe(true);
    expect(eventResource(3).form!.toBody!({ identifier: 'PCS_FAULT', name: 'x', level: 1, sort: 0 }, 'add')).toMatchObject({ productId: 3 });
  });

  it('the contract refuses what the forms must not send', () => {
    const base = { productId: 1, identifier: 'state', name: '状态', dataType: 'enum' };
    expect(propertyAdd.safeParse({ ...base, identifier: 'State_1', enumValues: [{ value: 0, label: 'a' }] }).success).toBe(false);
    expect(propertyAdd.safeParse({ ...base, enumValues: [{ value: 0, label: 'a', colour: '#ff0000' }, { value: 1, label: 'b', colour: '#FF0000' }] }).success).toBe(false);
    expect(templateAdd.safeParse({ name: 't', productId: 1, identifiers: ['soc', 'soc'] }).success).toBe(false);
  });

  it('the enum editor marks a repeated status value', () => {
    function Harness() {
      const [v, setV] = useState<unknown>([{ value: 0, label: '停机', colour: '#8c8c8c' }]);
      return <EnumValuesEditor value={v} onChange={setV} />;
    }
    render(<Harness />);
    expect(screen.queryByText('状态值、名称和颜色都不能重复')).toBeNull();
    fireEvent.click(screen.getByText('添加枚举值'));
    expect(screen.getAllByLabelText('状态值')).toHaveLength(2);
    fireEvent.change(screen.getAllByLabelText('状态值')[1]!, { target: { value: '0' } });
    expect(screen.getByText('状态值、名称和颜色都不能重复')).toBeTruthy();
  }, 30_000);
});

describe.each(LOCALES.filter((l) => l !== DEFAULT_LOCALE))('%s pack for the product screens', (locale) => {
  it('translates every text the declarations show', () => {
    const pack = readPack(locale);
    const texts = declaredTexts();
    expect(texts.length).toBeGreaterThan(50);
    expect(texts.filter((s) => !pack[s])).toEqual([]);
  });
});
