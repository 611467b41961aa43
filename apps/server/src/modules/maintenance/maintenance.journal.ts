import { SYSTEM_ACTOR, type MaintLogEntity, type MaintLogRecord } from '@ess/contract';
import { maintenanceLog } from '../../db/schema/maintenance.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import type { TransitionEntry } from '../../platform/state.ts';

/**
 * The one state journal of plans, work orders and repair orders (maintenance_log): the
 * `journal` callback of the transition helper for each, and its rows as the contract answers them.
 */

/**
 * The actor of the generator and automatic jobs (id 0: no user). Journals name it 系统, it holds
 * the machines' `system` role, and it is never a signed-in caller.
 */
export const SYSTEM_USER: AuthUser = { id: 0, username: 'system', name: SYSTEM_ACTOR, companyId: 0, companyPath: '', buildIn: false, allSites: false, sessionId: 0 };

type LogRow = typeof maintenanceLog.$inferSelect;

export const logRecord = (r: LogRow): MaintLogRecord => ({
  id: r.id,
  orderId: r.entityId,
  action: r.action,
  fromState: r.fromState,
  toState: r.toState,
  note: r.note,
  userId: r.userId,
  username: r.username,
  createdAt: r.createdAt.toISOString(),
});

/** Writes the journal row of a transition of an entity of this kind. */
export function journalOf(entity: MaintLogEntity) {
  return async <S extends string, R extends { id: number }>(tx: DbOrTx, e: TransitionEntry<S, R>): Promise<MaintLogRecord> => {
    const [row] = await tx
      .insert(maintenanceLog)
      .values({
        entity, entityId: e.row.id, action: e.action, fromState: e.from, toState: e.to, note: e.note,
        userId: e.user.id === SYSTEM_USER.id ? null : e.user.id, username: e.user.id === SYSTEM_USER.id ? SYSTEM_ACTOR : e.user.name,
      })
      .returning();
    return logRecord(row!);
  };
}
