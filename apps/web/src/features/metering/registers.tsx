import { READING_REGISTERS, registerLabel, type RegisterValues } from '@ess/contract/meter-reading';
import type { ColumnDef } from '../../components/crud/index.ts';
import { formatNumber } from '../../components/number-format.ts';

/** A register value in kWh as the locale writes it (to the Wh), '-' when not read. */
export const kwh = (v: number | null | undefined) => (v === null || v === undefined ? '-' : formatNumber(v));

/**
 * List columns of register values: the two totals first, then the ten time-of-use registers
 * (the user may hide them, the table remembers). `pick` takes the values from the row.
 */
export function registerColumns<R>(pick: (row: R) => RegisterValues, prefix = ''): ColumnDef<R>[] {
  return READING_REGISTERS.map((reg) => ({
    key: `${prefix}${reg}`,
    title: registerLabel(reg),
    width: 170,
    inDetail: false,
    render: (row: R) => kwh(pick(row)[reg]),
  }));
}
