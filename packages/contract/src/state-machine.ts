/**
 * Entities with statuses (site handling now; work orders, repair orders, plans, statements,
 * firmware tasks and rollouts later) declare their transition table here, in the contract: the
 * server's transition helper enforces it, the console shows only the actions it allows.
 */

/** One action: the states it may start from, the state it leads to ('same' keeps the state), who may. */
export interface TransitionDef<S extends string> {
  from: readonly S[];
  to: S | 'same';
  /**
   * Who may take it, as the module's own roles of a user toward the entity (for example
   * 'assignee', 'creator'); absent means anyone allowed to call the endpoint.
   */
  who?: readonly string[];
}

export interface StateMachine<S extends string, A extends string> {
  /** Names the machine in journals and events (`site.handle`, `repair.order`, …). */
  name: string;
  states: readonly S[];
  /** Source texts of the states (the refusal names the current one). */
  stateLabels: Record<S, string>;
  actionLabels: Record<A, string>;
  transitions: Record<A, TransitionDef<S>>;
  /** The refusal's text when the default (naming the current state) is not the one to show. */
  refusal?: (state: S, action: A) => string;
}

export function defineStateMachine<S extends string, A extends string>(m: StateMachine<S, A>): StateMachine<S, A> {
  return m;
}

/** Whether `action` may be taken from `state` by a user holding `roles` toward the entity. */
export function canTransition<S extends string, A extends string>(m: StateMachine<S, A>, state: S, action: A, roles: readonly string[] = []): boolean {
  const t = m.transitions[action];
  return t.from.includes(state) && (!t.who || t.who.some((w) => roles.includes(w)));
}

/** The actions the console offers on an entity in `state` (in the table's order). */
export function allowedActions<S extends string, A extends string>(m: StateMachine<S, A>, state: S, roles: readonly string[] = []): A[] {
  return (Object.keys(m.transitions) as A[]).filter((a) => canTransition(m, state, a, roles));
}

/** The state an action leads to from `state`. */
export function nextState<S extends string, A extends string>(m: StateMachine<S, A>, state: S, action: A): S {
  const to = m.transitions[action].to;
  return to === 'same' ? state : to;
}

/** The refusal's text, naming the current state: 当前状态为「检修中」，不能开始检修. */
export const transitionRefusal = <S extends string, A extends string>(m: StateMachine<S, A>, state: S, action: A) =>
  m.refusal?.(state, action) ?? `当前状态为「${m.stateLabels[state]}」，不能${m.actionLabels[action]}`;
