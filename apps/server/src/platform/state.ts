import { canTransition, nextState, transitionRefusal, type StateMachine } from '@ess/contract';
import type { AppContext } from './context.ts';
import type { DbOrTx } from './db/database.ts';
import { emit } from './events/outbox.ts';
import type { AuthUser } from './http/auth.ts';
import { AppError } from './http/errors.ts';

declare module './events/outbox.ts' {
  interface DomainEvents {
    /** An entity with statuses took an action (its machine's name says which kind of entity). */
    'state.changed': { machine: string; entityId: number; action: string; from: string; to: string; userId: number };
  }
}

/** One transition as the entity's callbacks see it. */
export interface TransitionEntry<S extends string, R> {
  row: R;
  action: string;
  from: S;
  to: S;
  note: string | null;
  user: AuthUser;
}

/** How the helper reaches one kind of entity: its row and state, the state's write, its journal. */
export interface StatefulEntity<S extends string, R extends { id: number; state: S }, J> {
  /** Reads the entity's row locked (select … for update) with its state; refuses (404) what the caller may not see. */
  lock(tx: DbOrTx): Promise<R>;
  /** Writes the new state (not called when the action keeps it). */
  write(tx: DbOrTx, entry: TransitionEntry<S, R>): Promise<void>;
  /** Writes the journal row: who, when, from, to, note. */
  journal(tx: DbOrTx, entry: TransitionEntry<S, R>): Promise<J>;
}

export interface TransitionInput<A extends string> {
  action: A;
  user: AuthUser;
  /** The user's roles toward the entity, for the table's `who`. */
  roles?: readonly string[];
  note?: string | null;
}

/**
 * Takes an action on an entity with statuses, in one transaction: locks its row, checks the
 * action against the machine's table from the current state (refused 406 naming the state), writes
 * the new state and a journal row, and emits `state.changed`; the event goes out after the commit.
 */
export async function transition<S extends string, A extends string, R extends { id: number; state: S }, J>(
  ctx: AppContext,
  machine: StateMachine<S, A>,
  entity: StatefulEntity<S, R, J>,
  input: TransitionInput<A>,
): Promise<{ row: R; from: S; to: S; journal: J }> {
  const result = await ctx.db.transaction(async (tx) => {
    const row = await entity.lock(tx);
    const from = row.state;
    if (!canTransition(machine, from, input.action, input.roles)) throw new AppError('RULE_VIOLATION', transitionRefusal(machine, from, input.action));
    const entry = { row, action: input.action, from, to: nextState(machine, from, input.action), note: input.note ?? null, user: input.user };
    if (entry.to !== from) await entity.write(tx, entry);
    const journal = await entity.journal(tx, entry);
    const { to } = entry;
    await emit(tx, 'state.changed', [{ machine: machine.name, entityId: row.id, action: input.action, from, to, userId: input.user.id }]);
    return { row, from, to, journal };
  });
  ctx.outbox.nudge();
  return result;
}
