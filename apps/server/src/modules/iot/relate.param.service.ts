import { and, asc, eq, ne } from 'drizzle-orm';
import type { z } from 'zod';
import { IOT_ERRORS, type IotRelateParamRecord, type iotRelateParamAdd, type iotRelateParamEdit } from '@ess/contract/iot';
import { productCommand } from '../../db/schema/device.ts';
import { iotParam, iotRelateCommand, iotRelateParam } from '../../db/schema/iot.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { uniquely } from './unique.ts';
import { inCompanyScope } from '../../platform/http/scope.ts';

/**
 * A command relation's parameters: a platform command's input ← the console command's request
 * parameter of that identifier (with scale, offset and a value map), once per input and once
 * per request parameter.
 */
type Add = z.output<typeof iotRelateParamAdd>;
type Edit = z.output<typeof iotRelateParamEdit>;

const columns = {
  id: iotRelateParam.id, relateCommandId: iotRelateParam.relateCommandId, iotParamId: iotRelateParam.iotParamId, iotParamIdentifier: iotParam.identifier,
  identifier: iotRelateParam.identifier, scale: iotRelateParam.scale, offset: iotRelateParam.offset, valueMap: iotRelateParam.valueMap,
  createdAt: iotRelateParam.createdAt, updatedAt: iotRelateParam.updatedAt,
};
const toRecord = (r: { createdAt: Date; updatedAt: Date } & Omit<IotRelateParamRecord, 'createdAt' | 'updatedAt'>): IotRelateParamRecord => ({
  ...r, createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString(),
});
const rows = (db: DbOrTx) => db.select(columns).from(iotRelateParam).innerJoin(iotParam, eq(iotParam.id, iotRelateParam.iotParamId));

async function relateCommandOf(db: DbOrTx, user: AuthUser, id: number) {
  const [r] = await db.select().from(iotRelateCommand).where(and(eq(iotRelateCommand.id, id), inCompanyScope(iotRelateCommand.companyId, db, user)));
  return found(r, IOT_ERRORS.relationNotFound);
}

export async function paramList(ctx: AppContext, user: AuthUser, relateCommandId: number): Promise<IotRelateParamRecord[]> {
  const rc = await relateCommandOf(ctx.db, user, relateCommandId);
  return (await rows(ctx.db).where(eq(iotRelateParam.relateCommandId, rc.id)).orderBy(asc(iotRelateParam.identifier), asc(iotRelateParam.id))).map(toRecord);
}

export async function paramOne(ctx: AppContext, user: AuthUser, id: number): Promise<IotRelateParamRecord> {
  const [r] = await rows(ctx.db).where(and(eq(iotRelateParam.id, id), inCompanyScope(iotRelateParam.companyId, ctx.db, user)));
  return toRecord(found(r, IOT_ERRORS.relationNotFound));
}

async function checked(db: DbOrTx, user: AuthUser, b: Add & { id?: number }) {
  const rc = await relateCommandOf(db, user, b.relateCommandId);
  const [p] = await db.select().from(iotParam).where(and(eq(iotParam.id, b.iotParamId), inCompanyScope(iotParam.companyId, db, user)));
  const param = found(p, IOT_ERRORS.paramNotFound);
  if (param.ownerKind !== 'command' || param.commandId !== rc.iotCommandId || param.direction !== 'input') throw new AppError('RULE_VIOLATION', '所选参数不是该平台命令的输入参数');
  const [cmd] = await db
    .select({ requestParams: productCommand.requestParams })
    .from(productCommand)
    .where(and(eq(productCommand.productId, rc.productId), eq(productCommand.identifier, rc.identifier)));
  const known = ((cmd?.requestParams ?? []) as { identifier?: string }[]).some((x) => x.identifier === b.identifier);
  if (!known) throw new AppError('RULE_VIOLATION', IOT_ERRORS.unknownParam(b.identifier));
  const same = and(eq(iotRelateParam.relateCommandId, rc.id), b.id ? ne(iotRelateParam.id, b.id) : undefined);
  const [dup] = await db.select({ id: iotRelateParam.id, iotParamId: iotRelateParam.iotParamId }).from(iotRelateParam).where(and(same, eq(iotRelateParam.iotParamId, b.iotParamId)));
  const [dupTarget] = await db.select({ id: iotRelateParam.id }).from(iotRelateParam).where(and(same, eq(iotRelateParam.identifier, b.identifier)));
  if (dup || dupTarget) throw new AppError('DUPLICATE', IOT_ERRORS.paramRelationExists);
  return rc;
}


export async function paramAdd(ctx: AppContext, user: AuthUser, b: Add): Promise<{ id: number }> {
  const rc = await checked(ctx.db, user, b);
  const [row] = await uniquely(() => ctx.db.insert(iotRelateParam).values({ ...b, companyId: rc.companyId, createdBy: user.id }).returning({ id: iotRelateParam.id }), IOT_ERRORS.paramRelationExists);
  return { id: row!.id };
}

export async function paramEdit(ctx: AppContext, user: AuthUser, b: Edit): Promise<boolean> {
  await paramOne(ctx, user, b.id);
  await checked(ctx.db, user, b);
  const { id, ...values } = b;
  await uniquely(() => ctx.db.update(iotRelateParam).set({ ...values, updatedAt: new Date() }).where(eq(iotRelateParam.id, id)), IOT_ERRORS.paramRelationExists);
  return true;
}

export async function paramDelete(ctx: AppContext, user: AuthUser, id: number): Promise<boolean> {
  const r = await paramOne(ctx, user, id);
  await ctx.db.delete(iotRelateParam).where(eq(iotRelateParam.id, r.id));
  return true;
}
