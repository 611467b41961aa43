import { workOrderHandle, type ItemResult, type WorkOrderItemRecord } from '@ess/contract/maintenance';

/** What the handle form holds for one item of an order. */
export interface ResultDraft {
  result: ItemResult | null;
  value: number | null;
  text: string | null;
  photos: string[];
}

/** The drafts of an order's items, from what is recorded. */
export function draftsOf(items: readonly WorkOrderItemRecord[]): Record<number, ResultDraft> {
  return Object.fromEntries(items.map((i) => [i.id, { result: i.result, value: i.value, text: i.text, photos: i.photos.map((p) => p.suffix) }]));
}

/** A measured value outside the item's range (the server records it as a failure and a defect). */
export const outOfRange = (item: Pick<WorkOrderItemRecord, 'min' | 'max'>, value: number | null) =>
  value !== null && ((item.min !== null && value < item.min) || (item.max !== null && value > item.max));

/** Whether an item's draft holds what its check type needs. */
export function isRecorded(item: Pick<WorkOrderItemRecord, 'checkType'>, d: ResultDraft | undefined): boolean {
  if (!d) return false;
  switch (item.checkType) {
    case 'status':
      return d.result !== null;
    case 'number':
      return d.value !== null;
    case 'text':
      return !!d.text?.trim();
    case 'photo':
      return d.photos.length > 0;
  }
}

/**
 * The handle request of the drafts (the items with something recorded), checked with the
 * contract; `complete` also needs every item recorded. Returns the body, or the first issue (source text).
 */
export function handleBody(
  id: number,
  items: readonly WorkOrderItemRecord[],
  drafts: Record<number, ResultDraft>,
  complete: boolean,
  note: string | null,
): { ok: true; body: Record<string, unknown> } | { ok: false; issue: string; itemId?: number } {
  if (complete) {
    const missing = items.find((i) => !isRecorded(i, drafts[i.id]));
    if (missing) return { ok: false, issue: '请填写检查结果', itemId: missing.id };
  }
  const results = items
    .filter((i) => {
      const d = drafts[i.id];
      return d && (d.result !== null || d.value !== null || !!d.text?.trim() || d.photos.length > 0);
    })
    .map((i) => {
      const d = drafts[i.id]!;
      const result = outOfRange(i, d.value) ? 'fail' : d.result;
      return { id: i.id, result, value: d.value, text: d.text?.trim() ? d.text : null, photos: d.photos };
    });
  const body = { id, results, complete, note };
  const checked = workOrderHandle.safeParse(body);
  if (!checked.success) return { ok: false, issue: checked.error.issues[0]!.message };
  return { ok: true, body };
}
