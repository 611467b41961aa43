import { newUser, type FactoryUser } from './factory.ts';
import type { TestApp } from './harness.ts';

/**
 * The former notification fixtures under their old names, for test files written against them
 * while the factories landed; new tests import factory.ts.
 */
export {
  eventually, FACTORY_PASSWORD as FIXTURE_PASSWORD, newRole as makeRole, seededCompanies as companiesOf, type FactoryUser as FixtureUser,
} from './factory.ts';

export function makeUser(
  t: TestApp,
  companyId: number,
  opts: { menuPaths?: string[]; roleId?: number; status?: 0 | 1; signIn?: boolean } = {},
): Promise<FactoryUser> {
  const { menuPaths, ...rest } = opts;
  return newUser(t, companyId, { ...rest, menus: menuPaths });
}
