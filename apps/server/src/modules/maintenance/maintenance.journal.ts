import { ASSIGNEE_ROLE, SYSTEM_ACTOR, type MaintLogEntity, type MaintLogRecord, type StateMachine } from '@ess/contract';
import { maintenanceLog } from '../../db/schema/maintenance.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import type { AppContext } from '../../platform/context.ts';
import { transition, type StatefulEntity, type TransitionEntry } from '../../platform/state.ts';

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

/** The caller's roles toward an order: its assignee, or none. */
export const rolesOf = (user: AuthUser, assigneeId: number | null): string[] => (assigneeId !== null && assigneeId === user.id ? [ASSIGNEE_ROLE] : []);

/**
 * Takes an action on a work order or repair order through the transition helper. The entity is
 * made with a callback that learns the locked row: the caller's roles toward it are known only
 * then, and the helper reads them after that, when it checks the machine's table.
 */
export function actOn<S extends string, A extends string, R extends { id: number; state: S; assigneeId: number | null }>(
  ctx: AppContext,
  machine: StateMachine<S, A>,
  input: { user: AuthUser; action: A; note: string | null },
  entityOf: (locked: (row: R) => void) => StatefulEntity<S, R, MaintLogRecord>,
) {
  let roles: string[] = [];
  const entity = entityOf((row) => {
    roles = rolesOf(input.user, row.assigneeId);
  });
  return transition(ctx, machine, entity, {
    ...input,
    get roles() {
      return roles;
    },
  });
}
