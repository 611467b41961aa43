import DOMPurify from 'dompurify';
import { THING_MODEL, type DeviceType, type ThingProperty } from '@ess/contract/telemetry';
import type { DiagramBinding } from '@ess/contract/site';
import type { Translate } from '../../components/crud/index.ts';

/**
 * The distribution diagram's logic apart from React: the SVG (already sanitised by the server)
 * is sanitised once more before it enters the page, and each bound element shows its device
 * property's latest value.
 */

export interface DeviceRef {
  id: number;
  code: string;
  name: string;
  type: string;
}

export interface LatestRef {
  id: number;
  values: Record<string, number | string | boolean>;
}

/** Defence in depth: the browser's own DOMPurify pass, SVG only, no foreignObject. */
export function cleanSvg(svg: string): string {
  return DOMPurify.sanitize(svg, { USE_PROFILES: { svg: true, svgFilters: true }, ADD_TAGS: ['use'], FORBID_TAGS: ['foreignObject', 'script', 'image'] });
}

export function propertiesOf(type: string | undefined): readonly ThingProperty[] {
  return type && type in THING_MODEL ? THING_MODEL[type as DeviceType].properties : [];
}

export function propertyOf(type: string | undefined, identifier: string): ThingProperty | undefined {
  return propertiesOf(type).find((p) => p.identifier === identifier);
}

/** A value as shown in the diagram: numbers to two decimals with the unit, enumerations by label. */
export function formatValue(value: number | string | boolean | null | undefined, prop: ThingProperty | undefined, t: Translate): string {
  if (value === null || value === undefined) return '--';
  if (typeof value === 'boolean') return t(value ? '是' : '否');
  if (typeof value === 'number') {
    const e = prop?.enumValues?.find((x) => x.value === value);
    if (e) return t(e.label);
    if (prop?.dataType === 'bool') return t(value ? '是' : '否');
    const n = Number.isInteger(value) ? String(value) : value.toFixed(2);
    return prop?.unit ? `${n} ${prop.unit}` : n;
  }
  return value;
}

const byId = (root: ParentNode, id: string) => root.querySelector(`[id="${id.replace(/["\\]/g, '\\$&')}"]`);

/**
 * Writes each binding's value into its element: the text of a <text>/<tspan>, else a <title>
 * (tooltip) and a data-value attribute the stylesheet can show. Returns the element ids written.
 */
export function applyBindings(
  root: ParentNode,
  bindings: readonly DiagramBinding[],
  devices: ReadonlyMap<number, DeviceRef>,
  latest: ReadonlyMap<number, LatestRef>,
  t: Translate,
): string[] {
  const written: string[] = [];
  for (const b of bindings) {
    const el = byId(root, b.elementId);
    if (!el) continue;
    const prop = propertyOf(devices.get(b.deviceId)?.type, b.identifier);
    const text = formatValue(latest.get(b.deviceId)?.values[b.identifier], prop, t);
    const tag = el.tagName.toLowerCase();
    if (tag === 'text' || tag === 'tspan') el.textContent = text;
    else {
      let title = [...el.children].find((c) => c.tagName.toLowerCase() === 'title');
      if (!title) {
        title = el.ownerDocument.createElementNS('http://www.w3.org/2000/svg', 'title');
        el.appendChild(title);
      }
      title.textContent = `${prop ? t(prop.label) : b.identifier}: ${text}`;
    }
    el.setAttribute('data-value', text);
    el.classList.add('ess-bound');
    written.push(b.elementId);
  }
  return written;
}

/** The element id under a click inside the diagram, if any. */
export function elementIdAt(target: EventTarget | null, root: Element): string | null {
  let el = target instanceof Element ? target : null;
  while (el && el !== root) {
    const id = el.getAttribute('id');
    if (id) return id;
    el = el.parentElement;
  }
  return null;
}
