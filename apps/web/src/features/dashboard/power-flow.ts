import type { FlowEdge, FlowNode, FlowNodeKey, SiteTopology } from '@ess/contract/comprehensive';

/**
 * Where the power-flow diagram draws each part (viewBox 0 0 760 380): the grid and transformer
 * above the station's bus, sources on the left (PV, storage), consumers on the right (load,
 * charging piles). Edges are drawn from → to; the animation runs that way for `forward` and the
 * other way for `reverse`.
 */
export const FLOW_VIEWBOX = { width: 760, height: 380 } as const;

interface Point {
  x: number;
  y: number;
}

/** Half the size of a part's box. */
export const NODE_HALF = { width: 60, height: 28 } as const;

/** The bus bar: a horizontal line the parts connect to at their own points. */
export const BUS_BAR = { x1: 240, x2: 520, y: 200 } as const;

/** The bar's name, between the storage's and the grid's joints. */
export const BUS_LABEL = { x: 335, y: BUS_BAR.y + 22 } as const;

export function nodePosition(key: FlowNodeKey, hasTransformer: boolean): Point {
  switch (key) {
    case 'grid':
      return hasTransformer ? { x: 110, y: 60 } : { x: 380, y: 60 };
    case 'transformer':
      return { x: 380, y: 60 };
    case 'bus':
      return { x: 380, y: BUS_BAR.y };
    case 'pv':
      return { x: 110, y: 200 };
    case 'storage':
      return { x: 110, y: 320 };
    case 'load':
      return { x: 650, y: 120 };
    case 'piles':
      return { x: 650, y: 290 };
  }
}

/** Where each part meets the bus bar. */
const BUS_ATTACH: Record<FlowNodeKey, number> = { grid: 380, transformer: 380, bus: 380, pv: BUS_BAR.x1, storage: 290, load: 470, piles: BUS_BAR.x2 };

export interface EdgeGeometry {
  d: string;
  /** Where the kW label goes. */
  label: Point;
  anchor: 'middle' | 'start';
}

/** An SVG path from → to, with right-angle elbows into the bus bar so that lines never cross. */
export function edgePath(e: Pick<FlowEdge, 'from' | 'to'>, hasTransformer: boolean): EdgeGeometry {
  const a = nodePosition(e.from, hasTransformer);
  const b = nodePosition(e.to, hasTransformer);
  const other = e.from === 'bus' ? e.to : e.to === 'bus' ? e.from : null;
  const isNode = (k: FlowNodeKey) => k !== 'bus';
  if (other === null || other === 'grid' || other === 'transformer' || other === 'pv') {
    // Straight lines: grid → transformer → bus from above, PV into the bar's left end, PV onto the storage.
    const to = other === 'pv' ? { x: BUS_ATTACH.pv, y: BUS_BAR.y } : b;
    const d = `M${a.x},${a.y} L${to.x},${to.y}`;
    if (a.x === to.x) {
      // The label sits halfway along the part of the line that the boxes do not cover.
      const y1 = a.y + NODE_HALF.height * Math.sign(to.y - a.y);
      const y2 = isNode(e.to) ? to.y - NODE_HALF.height * Math.sign(to.y - a.y) : to.y;
      return { d, label: { x: a.x + 10, y: (y1 + y2) / 2 + 4 }, anchor: 'start' };
    }
    const x1 = a.x + NODE_HALF.width * Math.sign(to.x - a.x);
    const x2 = isNode(e.to) && other !== 'pv' ? to.x - NODE_HALF.width * Math.sign(to.x - a.x) : to.x;
    return { d, label: { x: (x1 + x2) / 2, y: a.y - 10 }, anchor: 'middle' };
  }
  // Storage, load and piles: along their own row, then up or down into the bus bar.
  const side = other === e.from ? a : b;
  const joint = { x: BUS_ATTACH[other], y: side.y };
  const onBus = { x: BUS_ATTACH[other], y: BUS_BAR.y };
  const points = e.from === 'bus' ? [onBus, joint, side] : [side, joint, onBus];
  const visible = side.x + NODE_HALF.width * Math.sign(joint.x - side.x);
  return {
    d: `M${points.map((p) => `${p.x},${p.y}`).join(' L')}`,
    label: { x: (visible + joint.x) / 2, y: side.y - 10 },
    anchor: 'middle',
  };
}

/** The kW shown on an edge: '-' when not measured. */
export function edgeLabel(e: Pick<FlowEdge, 'power'>): string {
  if (e.power === null) return '-';
  return `${formatKw(e.power)} kW`;
}

export function formatKw(v: number): string {
  const abs = Math.abs(v);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : 2;
  return String(Math.round(v * 10 ** digits) / 10 ** digits);
}

/** Node colours by part. */
export const NODE_COLOURS: Record<FlowNodeKey, string> = {
  grid: '#1677ff',
  transformer: '#2f54eb',
  bus: '#595959',
  storage: '#13a8a8',
  pv: '#d48806',
  load: '#722ed1',
  piles: '#389e0d',
};

/** What the station lacks, as source texts for the note under the diagram. */
export function missingParts(t: Pick<SiteTopology, 'subsystems'>): string[] {
  const out: string[] = [];
  if (!t.subsystems.storage) out.push('该站点没有储能');
  if (!t.subsystems.pv) out.push('该站点没有光伏');
  if (!t.subsystems.charging) out.push('该站点没有充电桩');
  return out;
}

/** The direction of an edge in words (source text), for screen readers and titles. */
export function directionText(e: FlowEdge): string {
  switch (e.direction) {
    case 'forward':
      return '$1 → $2';
    case 'reverse':
      return '$2 → $1';
    case 'idle':
      return '$1 — $2：无功率流动';
    case 'unknown':
      return '$1 — $2：暂无数据';
  }
}

export const nodeByKey = (nodes: readonly FlowNode[]) => new Map(nodes.map((n) => [n.key, n]));
