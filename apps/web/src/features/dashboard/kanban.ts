import type { AlarmKanbanSite, AlarmLevelCount } from '@ess/contract/alarm';
import type { LiveSite } from '@ess/contract/comprehensive';

/**
 * The operations board (/overview/kanban) puts each station in one lane, the first that holds:
 * maintenance — an operator put it in maintenance (offline devices are then expected);
 * offline — none of its devices reports (or none ever did);
 * alarm — it has alarms in progress;
 * partial — some of its devices are offline;
 * normal — everything reports and nothing is alarming.
 */
export const KANBAN_LANES = ['alarm', 'partial', 'offline', 'maintenance', 'normal'] as const;
export type KanbanLane = (typeof KANBAN_LANES)[number];

/** Lane titles and what each lane means (source texts), with the lane's colour. */
export const KANBAN_LANE_INFO: Record<KanbanLane, { title: string; hint: string; colour: string }> = {
  alarm: { title: '告警中', hint: '有进行中的告警', colour: '#cf1322' },
  partial: { title: '部分离线', hint: '部分设备未上报数据', colour: '#d46b08' },
  offline: { title: '离线', hint: '所有设备均未上报数据', colour: '#595959' },
  maintenance: { title: '检修中', hint: '运维人员标记为检修', colour: '#873800' },
  normal: { title: '正常运行', hint: '设备全部在线且无告警', colour: '#389e0d' },
};

/** A station on the board: its live picture and its alarms in progress by level (index 0 = level 1). */
export interface KanbanStation {
  site: LiveSite;
  lane: KanbanLane;
  /** Alarms in progress per level 1–5. */
  active: number[];
  activeTotal: number;
  /** Most severe level in progress (1 most severe), or null without alarms. */
  worstLevel: number | null;
}

const activeOf = (levels: readonly AlarmLevelCount[] | undefined): number[] => {
  const out = [0, 0, 0, 0, 0];
  for (const l of levels ?? []) if (l.level >= 1 && l.level <= 5) out[l.level - 1] = l.active;
  return out;
};

/** The lane of a station, by the order in the comment above. */
export function laneOf(site: Pick<LiveSite, 'status' | 'maintenance'>, activeTotal: number): KanbanLane {
  if (site.maintenance) return 'maintenance';
  if (site.status === 'offline' || site.status === 'noData') return 'offline';
  if (activeTotal > 0) return 'alarm';
  if (site.status === 'partial') return 'partial';
  return 'normal';
}

/** Most severe first (lowest level, then most alarms at it, then most alarms), then by name. */
function compare(a: KanbanStation, b: KanbanStation): number {
  const wa = a.worstLevel ?? 6;
  const wb = b.worstLevel ?? 6;
  if (wa !== wb) return wa - wb;
  const na = a.worstLevel ? a.active[a.worstLevel - 1]! : 0;
  const nb = b.worstLevel ? b.active[b.worstLevel - 1]! : 0;
  if (na !== nb) return nb - na;
  if (a.activeTotal !== b.activeTotal) return b.activeTotal - a.activeTotal;
  const offA = a.site.devices.offline;
  const offB = b.site.devices.offline;
  if (offA !== offB) return offB - offA;
  return a.site.name.localeCompare(b.site.name);
}

/**
 * The board: every live station joined with its alarms (by station id; a station the alarm call
 * does not list counts as having none), in its lane, the most severe first.
 */
export function buildBoard(sites: readonly LiveSite[], alarms: AlarmKanbanSite | undefined): Record<KanbanLane, KanbanStation[]> {
  const levels = new Map((alarms?.sites ?? []).map((s) => [s.siteId, s.levels]));
  const board = Object.fromEntries(KANBAN_LANES.map((l) => [l, [] as KanbanStation[]])) as Record<KanbanLane, KanbanStation[]>;
  for (const site of sites) {
    const active = activeOf(levels.get(site.id));
    const activeTotal = active.reduce((a, x) => a + x, 0);
    const worst = active.findIndex((n) => n > 0);
    const lane = laneOf(site, activeTotal);
    board[lane].push({ site, lane, active, activeTotal, worstLevel: worst < 0 ? null : worst + 1 });
  }
  for (const lane of KANBAN_LANES) board[lane].sort(compare);
  return board;
}

/** Totals over the board: stations, devices and power of the stations in scope. */
export interface BoardTotals {
  stations: number;
  reporting: number;
  devicesOnline: number;
  devicesTotal: number;
  /** kW; null when no station measures it. Storage: + discharging, − charging. */
  storage: number | null;
  pv: number | null;
  load: number | null;
  /** Mean SOC over the stations that report one, %. */
  soc: number | null;
}

export function boardTotals(sites: readonly LiveSite[]): BoardTotals {
  const sum = (vs: (number | null)[]) => {
    const known = vs.filter((v): v is number => v !== null);
    return known.length ? known.reduce((a, x) => a + x, 0) : null;
  };
  const socs = sites.map((s) => s.soc).filter((v): v is number => v !== null);
  return {
    stations: sites.length,
    reporting: sites.filter((s) => s.status === 'online' || s.status === 'partial').length,
    devicesOnline: sites.reduce((a, s) => a + s.devices.online, 0),
    devicesTotal: sites.reduce((a, s) => a + s.devices.total, 0),
    storage: sum(sites.map((s) => s.power.storage)),
    pv: sum(sites.map((s) => s.power.pv)),
    load: sum(sites.map((s) => s.power.load)),
    soc: socs.length ? socs.reduce((a, x) => a + x, 0) / socs.length : null,
  };
}
