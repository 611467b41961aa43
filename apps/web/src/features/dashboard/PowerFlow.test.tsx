import type { FlowEdge, FlowNode, SiteTopology, StatusCounts, Subsystems } from '@ess/contract/comprehensive';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { edgePath, nodePosition } from './power-flow.ts';
import { PowerFlow } from './PowerFlow.tsx';

const counts: StatusCounts = { total: 1, online: 1, offline: 0, disabled: 0, inactive: 0 };
const NAMES: Record<FlowNode['key'], string> = { grid: '电网', transformer: '变压器', bus: '母线', storage: '储能', pv: '光伏', load: '负荷', piles: '充电桩' };
const node = (key: FlowNode['key'], power: number | null, percent?: number): FlowNode => ({ key, name: NAMES[key], power, devices: counts, ...(percent !== undefined ? { percent } : {}) });
const edge = (from: FlowEdge['from'], to: FlowEdge['to'], power: number | null, direction: FlowEdge['direction']): FlowEdge => ({ from, to, power, direction });
const all: Subsystems = { storage: true, pv: true, pvCoupling: 'ac', charging: true, transformer: true, mainMeter: true };

/** Los Angeles at dusk: importing, the battery charging, PV still giving a little, two cars charging. */
const full: SiteTopology = {
  siteId: 3,
  ts: '2026-01-01T00:00:00.000Z',
  subsystems: all,
  nodes: [node('grid', 100), node('transformer', 100, 16.5), node('bus', null), node('storage', -50, 55), node('pv', 40), node('load', 68), node('piles', 22)],
  edges: [
    edge('grid', 'transformer', 100, 'forward'), edge('transformer', 'bus', 100, 'forward'), edge('storage', 'bus', 50, 'reverse'),
    edge('pv', 'bus', 40, 'forward'), edge('bus', 'load', 68, 'forward'), edge('bus', 'piles', 22, 'forward'),
  ],
};

const edgeOf = (from: string, to: string) => screen.getByTestId(`flow-edge-${from}-${to}`);

describe('power flow', () => {
  afterEach(cleanup);

  it('animates each edge the way energy flows and labels it with its kW', () => {
    render(<PowerFlow topology={full} />);
    const storage = edgeOf('storage', 'bus');
    expect(storage.dataset.direction).toBe('reverse');
    expect(within(storage).getByTestId('flow-dashes').getAttribute('class')).toBe('pf-flow pf-reverse');
    expect(within(storage).getByTestId('flow-edge-label').textContent).toBe('50 kW');
    const load = edgeOf('bus', 'load');
    expect(within(load).getByTestId('flow-dashes').getAttribute('class')).toBe('pf-flow');
    expect(within(load).getByTestId('flow-edge-label').textContent).toBe('68 kW');
    expect(within(edgeOf('grid', 'transformer')).getByTestId('flow-edge-label').textContent).toBe('100 kW');
    // The storage node says it is charging, with its SOC; the transformer its load rate.
    expect(within(screen.getByTestId('flow-node-storage')).getByTestId('flow-node-power').textContent).toBe('50 kW · 充电');
    expect(screen.getByTestId('flow-node-storage').textContent).toContain('SOC 55%');
    expect(screen.getByTestId('flow-node-transformer').textContent).toContain('负载率 16.5%');
    expect(screen.queryByTestId('flow-missing')).toBeNull();
    expect(screen.queryByTestId('flow-no-data')).toBeNull();
    // The accessible name reads the flows in words.
    expect(screen.getByRole('img').textContent).toContain('充电桩');
  });

  it('keeps zero flows still and grey, and shows unmeasured edges without a number', () => {
    const still: SiteTopology = {
      ...full,
      nodes: full.nodes.map((n) => (n.key === 'pv' ? node('pv', 0) : n.key === 'piles' ? node('piles', null) : n)),
      edges: full.edges.map((e) => (e.from === 'pv' ? edge('pv', 'bus', 0, 'idle') : e.to === 'piles' ? edge('bus', 'piles', null, 'unknown') : e)),
    };
    render(<PowerFlow topology={still} />);
    const pv = edgeOf('pv', 'bus');
    expect(pv.dataset.direction).toBe('idle');
    expect(within(pv).queryByTestId('flow-dashes')).toBeNull();
    expect(within(pv).getByTestId('flow-edge-label').textContent).toBe('0 kW');
    const piles = edgeOf('bus', 'piles');
    expect(within(piles).queryByTestId('flow-dashes')).toBeNull();
    expect(within(piles).getByTestId('flow-edge-label').textContent).toBe('-');
    expect(within(screen.getByTestId('flow-node-piles')).getByTestId('flow-node-power').textContent).toBe('-');
  });

  it('leaves out the parts a station lacks and says so; DC-coupled PV feeds the storage', () => {
    const berlin: SiteTopology = {
      siteId: 2,
      ts: '2026-01-01T00:00:00.000Z',
      subsystems: { ...all, pvCoupling: 'dc', charging: false, transformer: false },
      nodes: [node('grid', 20), node('bus', null), node('storage', -30, 40), node('pv', 10), node('load', 0)],
      edges: [edge('grid', 'bus', 20, 'forward'), edge('storage', 'bus', 20, 'reverse'), edge('pv', 'storage', 10, 'forward'), edge('bus', 'load', 0, 'idle')],
    };
    render(<PowerFlow topology={berlin} />);
    expect(screen.queryByTestId('flow-node-piles')).toBeNull();
    expect(screen.queryByTestId('flow-node-transformer')).toBeNull();
    expect(screen.getByTestId('flow-missing').textContent).toBe('该站点没有充电桩');
    expect(edgeOf('pv', 'storage').dataset.direction).toBe('forward');
    expect(screen.queryByTestId('flow-edge-pv-bus')).toBeNull();
  });

  it('says why when the station has not reported yet, and names a storage-only station’s missing PV and piles', () => {
    const silent: SiteTopology = {
      siteId: 1,
      ts: null,
      subsystems: { ...all, pv: false, pvCoupling: null, charging: false },
      nodes: [node('grid', null), node('transformer', null, undefined), node('bus', null), node('storage', null), node('load', null)],
      edges: [edge('grid', 'transformer', null, 'unknown'), edge('transformer', 'bus', null, 'unknown'), edge('storage', 'bus', null, 'unknown'), edge('bus', 'load', null, 'unknown')],
    };
    render(<PowerFlow topology={silent} />);
    expect(screen.getByTestId('flow-no-data').textContent).toContain('该站点尚无实时数据');
    expect(screen.getByTestId('flow-missing').textContent).toBe('该站点没有光伏；该站点没有充电桩');
    expect(screen.queryAllByTestId('flow-dashes')).toHaveLength(0);
  });

  it('draws lines that never pass through another part: elbows go into the bus bar', () => {
    expect(edgePath({ from: 'storage', to: 'bus' }, true).d).toBe('M110,320 L290,320 L290,200');
    expect(edgePath({ from: 'bus', to: 'load' }, true).d).toBe('M470,200 L470,120 L650,120');
    expect(edgePath({ from: 'pv', to: 'bus' }, true).d).toBe('M110,200 L240,200');
    expect(edgePath({ from: 'grid', to: 'bus' }, false).d).toBe('M380,60 L380,200');
    expect(nodePosition('grid', true)).not.toEqual(nodePosition('transformer', true));
  });
});
