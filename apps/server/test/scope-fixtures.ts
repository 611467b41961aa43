import type { TestApp } from './harness.ts';

/**
 * Creates one object of the named entity inside `companyId` (a company the probing user may
 * not see) and returns its id. Each module adds the entities its routes declare in `scope`.
 */
export type ScopeFixture = (t: TestApp, companyId: number) => Promise<number>;

export const scopeFixtures: Record<string, ScopeFixture> = {};
