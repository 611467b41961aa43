import type { FlowEdge, FlowNode, SiteTopology } from '@ess/contract/comprehensive';
import { IDLE_POWER_KW } from '@ess/contract/comprehensive';
import { Alert, Space, Typography } from 'antd';
import { useId } from 'react';
import { useT } from '../../platform/i18n/useT.ts';
import { BUS_BAR, BUS_LABEL, FLOW_VIEWBOX, NODE_COLOURS, NODE_HALF, directionText, edgeLabel, edgePath, formatKw, missingParts, nodeByKey, nodePosition } from './power-flow.ts';

const IDLE_GREY = '#bfbfbf';

/** Dashes that travel along the line: forward from → to, reverse the other way; still for people who ask for less motion. */
const CSS = `
.pf-flow { stroke-dasharray: 8 10; animation: pf-move 0.9s linear infinite; }
.pf-reverse { animation-direction: reverse; }
@keyframes pf-move { from { stroke-dashoffset: 18; } to { stroke-dashoffset: 0; } }
@media (prefers-reduced-motion: reduce) { .pf-flow { animation: none; } }
`;

type Translate = (source: string, ...args: unknown[]) => string;

/** The state a node's power means, as source text. */
function nodeState(n: FlowNode): string | null {
  if (n.power === null) return null;
  const idle = Math.abs(n.power) < IDLE_POWER_KW;
  switch (n.key) {
    case 'storage':
      return idle ? '静置' : n.power > 0 ? '放电' : '充电';
    case 'grid':
      return idle ? '无功率流动' : n.power > 0 ? '取电' : '送电';
    case 'transformer':
    case 'bus':
    case 'pv':
    case 'load':
    case 'piles':
      return null;
  }
}

function Edge({ e, hasTransformer, names, t }: { e: FlowEdge; hasTransformer: boolean; names: Map<string, string>; t: Translate }) {
  const g = edgePath(e, hasTransformer);
  const moving = e.direction === 'forward' || e.direction === 'reverse';
  // The line takes the colour of the part the energy comes from.
  const source = e.direction === 'reverse' ? e.to : e.from;
  const colour = moving ? NODE_COLOURS[source] : IDLE_GREY;
  const title = t(directionText(e), names.get(e.from) ?? e.from, names.get(e.to) ?? e.to);
  return (
    <g data-testid={`flow-edge-${e.from}-${e.to}`} data-direction={e.direction}>
      <title>{`${title} ${edgeLabel(e)}`}</title>
      <path d={g.d} fill="none" stroke={moving ? colour : IDLE_GREY} strokeOpacity={moving ? 0.25 : 1} strokeWidth={moving ? 6 : 2}
        strokeDasharray={e.direction === 'unknown' ? '4 4' : undefined} />
      {moving && (
        <path d={g.d} fill="none" stroke={colour} strokeWidth={3} strokeLinecap="round" data-testid="flow-dashes"
          className={e.direction === 'reverse' ? 'pf-flow pf-reverse' : 'pf-flow'} />
      )}
      <text x={g.label.x} y={g.label.y} textAnchor={g.anchor} fontSize={14} fontWeight={moving ? 600 : 400} fill={moving ? '#262626' : '#8c8c8c'}
        data-testid="flow-edge-label">
        {edgeLabel(e)}
      </text>
    </g>
  );
}

function Node({ n, hasTransformer, t }: { n: FlowNode; hasTransformer: boolean; t: Translate }) {
  const p = nodePosition(n.key, hasTransformer);
  const colour = NODE_COLOURS[n.key];
  const state = nodeState(n);
  const percent = n.percent ?? null;
  const second = n.power === null ? '-' : `${formatKw(Math.abs(n.power))} kW${state ? ` · ${t(state)}` : ''}`;
  const third = percent === null ? null : n.key === 'storage' ? `SOC ${formatKw(percent)}%` : n.key === 'transformer' ? t('负载率 $1%', formatKw(percent)) : null;
  return (
    <g data-testid={`flow-node-${n.key}`}>
      <rect x={p.x - NODE_HALF.width} y={p.y - NODE_HALF.height} width={NODE_HALF.width * 2} height={NODE_HALF.height * 2} rx={10}
        fill="#fff" stroke={colour} strokeWidth={2} />
      <text x={p.x} y={p.y - (third ? 10 : 5)} textAnchor="middle" fontSize={15} fontWeight={600} fill={colour}>{t(n.name)}</text>
      <text x={p.x} y={p.y + (third ? 8 : 14)} textAnchor="middle" fontSize={13} fill="#262626" data-testid="flow-node-power">{second}</text>
      {third && <text x={p.x} y={p.y + 23} textAnchor="middle" fontSize={12} fill="#595959">{third}</text>}
    </g>
  );
}

/**
 * The station's live power flow between grid, transformer, bus, storage, PV, load and charging
 * piles: dashes move the way energy flows, each edge carries its kW; idle edges stand still and
 * unmeasured ones are dashed grey. Parts the station lacks are left out and named below.
 */
export function PowerFlow({ topology, height = 360 }: { topology: SiteTopology; height?: number }) {
  const t = useT();
  const titleId = useId();
  const hasTransformer = topology.subsystems.transformer;
  const nodes = nodeByKey(topology.nodes);
  const names = new Map([...nodes.values()].map((n) => [n.key as string, t(n.name)]));
  const missing = missingParts(topology);
  return (
    <Space direction="vertical" size={8} style={{ width: '100%' }} data-testid="power-flow">
      <svg viewBox={`0 0 ${FLOW_VIEWBOX.width} ${FLOW_VIEWBOX.height}`} width="100%" height={height} role="img" aria-labelledby={titleId}>
        <title id={titleId}>
          {[t('能量流向图'), ...topology.edges.map((e) => `${t(directionText(e), names.get(e.from) ?? e.from, names.get(e.to) ?? e.to)} ${edgeLabel(e)}`)].join('；')}
        </title>
        <style>{CSS}</style>
        <line x1={BUS_BAR.x1} y1={BUS_BAR.y} x2={BUS_BAR.x2} y2={BUS_BAR.y} stroke={NODE_COLOURS.bus} strokeWidth={6} strokeLinecap="round" />
        <text x={BUS_LABEL.x} y={BUS_LABEL.y} textAnchor="middle" fontSize={12} fill="#595959">{t('母线')}</text>
        {topology.edges.map((e) => (
          <Edge key={`${e.from}-${e.to}`} e={e} hasTransformer={hasTransformer} names={names} t={t} />
        ))}
        {topology.nodes.filter((n) => n.key !== 'bus').map((n) => (
          <Node key={n.key} n={n} hasTransformer={hasTransformer} t={t} />
        ))}
      </svg>
      {topology.ts === null && <Alert type="info" showIcon message={t('该站点尚无实时数据：设备还没有上报')} data-testid="flow-no-data" />}
      {missing.length > 0 && (
        <Typography.Text type="secondary" data-testid="flow-missing">
          {missing.map((m) => t(m)).join('；')}
        </Typography.Text>
      )}
    </Space>
  );
}
