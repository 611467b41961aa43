import { useUserStore } from './user-store.ts';

/** An endpoint of the contract, or a reference to one: only its catalogue path matters here. */
export interface CallPath {
  readonly path: string;
}

/**
 * Whether the signed-in user may make this call. The answer comes from the profile's permission
 * list, which the server computes with the route guard's own rule (a role grants the interface
 * through a menu or directly; calls open to every signed-in user are listed too), so an action is
 * shown exactly when the call behind it would be allowed. No user loaded: nothing is allowed.
 */
export function canCall(permissions: ReadonlySet<string>, endpoint: CallPath): boolean {
  return permissions.has(endpoint.path);
}

/** canCall for the signed-in user, outside React (resource definitions, event handlers). */
export const userCan = (endpoint: CallPath): boolean => canCall(useUserStore.getState().permissions, endpoint);

/**
 * Whether the signed-in user may make this call; pages show an action only when the call behind
 * it is allowed: `useCan(comprehensiveEndpoints.handle) && <Button …>`. Re-renders when the
 * profile (and so the permission list) is loaded again.
 */
export function useCan(endpoint: CallPath): boolean {
  return useUserStore((s) => canCall(s.permissions, endpoint));
}
