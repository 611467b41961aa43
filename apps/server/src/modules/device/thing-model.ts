import { and, eq, max } from 'drizzle-orm';
import { COMMAND_NAMES, DEVICE_TYPES, THING_MODEL, type CommandName, type DeviceType } from '@ess/contract';
import { product, productCommand, productEvent, productProperty } from '../../db/schema/device.ts';
import type { DbOrTx } from '../../platform/db/database.ts';

/** The product every device of a type gets unless configured otherwise: ESS-PCS, ESS-BMS, …. */
export const standardProductCode = (type: DeviceType) => `ESS-${type.replace(/[A-Z]/g, (c) => `-${c}`).toUpperCase()}`;

const COMMAND_LABELS: Record<CommandName, string> = {
  reboot: '重启',
  setProperty: '设置属性',
  switch: '开关机',
  faultRecover: '故障复位',
  remoteSet: '远程设置',
  temperature: '温度设定',
  warnMask: '告警屏蔽字',
  storageMode: '储能运行模式',
  applyStrategy: '下发运行策略',
  demandGuard: '需量保护放电',
};

const COMMAND_PARAMS: Record<CommandName, unknown[]> = {
  reboot: [],
  setProperty: [{ identifier: 'values', name: '属性值', dataType: 'object' }],
  switch: [{ identifier: 'on', name: '开机', dataType: 'bool' }],
  faultRecover: [{ identifier: 'code', name: '故障码', dataType: 'string', required: false }],
  remoteSet: [
    { identifier: 'onOff', name: '开关机', dataType: 'bool', required: false },
    { identifier: 'mode', name: '运行模式', dataType: 'enum', required: false },
    { identifier: 'fanSpeed', name: '风速档位', dataType: 'int', required: false, min: 0, max: 3 },
  ],
  temperature: [{ identifier: 'setpoint', name: '设定温度', dataType: 'float', min: 16, max: 35, unit: '°C' }],
  warnMask: [{ identifier: 'mask', name: '屏蔽字', dataType: 'int', required: false, min: 0, max: 0xffff }],
  storageMode: [
    { identifier: 'mode', name: '运行模式', dataType: 'enum' },
    { identifier: 'powerKw', name: '手动功率设定', dataType: 'float', required: false, unit: 'kW' },
    { identifier: 'durationMin', name: '持续时间', dataType: 'int', required: false, min: 1, max: 1440, unit: 'min' },
  ],
  applyStrategy: [
    { identifier: 'strategy', name: '运行策略', dataType: 'object' },
    { identifier: 'hash', name: '策略哈希', dataType: 'string' },
  ],
  demandGuard: [
    { identifier: 'dischargeKw', name: '放电功率', dataType: 'float', min: 0, unit: 'kW' },
    { identifier: 'until', name: '截止时间', dataType: 'int' },
  ],
};

/**
 * Makes sure a standard product (thing model) exists for every device type of the contract,
 * with every property, event and command of THING_MODEL. Idempotent and additive: missing
 * entries are inserted (new numeric properties take the next free slot), existing ones are left
 * as an administrator may have edited them.
 */
export async function syncThingModels(db: DbOrTx): Promise<void> {
  for (const type of DEVICE_TYPES) {
    const model = THING_MODEL[type];
    const code = standardProductCode(type);
    let [row] = await db.select({ id: product.id }).from(product).where(eq(product.code, code));
    row ??= (await db.insert(product).values({ code, name: `${model.label}标准模型`, type, description: `${model.label}（内置物模型）` }).returning({ id: product.id }))[0]!;
    const productId = row.id;
    const existing = new Set(
      (await db.select({ identifier: productProperty.identifier }).from(productProperty).where(eq(productProperty.productId, productId))).map((r) => r.identifier),
    );
    const missing = model.properties.filter((p) => !existing.has(p.identifier));
    if (missing.length) {
      const [top] = await db.select({ slot: max(productProperty.slot) }).from(productProperty).where(eq(productProperty.productId, productId));
      const [used] = await db.select({ n: product.slotCount }).from(product).where(eq(product.id, productId));
      // Slots of deleted properties stay taken (stored rows still hold their values).
      let slot = Math.max(top?.slot ?? 0, used?.n ?? 0);
      await db.insert(productProperty).values(
        missing.map((p) => ({
          productId,
          identifier: p.identifier,
          name: p.label,
          dataType: p.dataType,
          unit: p.unit,
          enumValues: p.enumValues ? p.enumValues.map((e) => ({ ...e })) : null,
          cumulative: p.cumulative ?? false,
          writable: p.writable ?? false,
          min: p.min ?? null,
          max: p.max ?? null,
          sort: model.properties.indexOf(p) + 1,
          slot: p.dataType === 'string' ? null : ++slot,
        })),
      );
      await db.update(product).set({ slotCount: slot }).where(eq(product.id, productId));
    }
    if (model.events.length) {
      await db
        .insert(productEvent)
        .values(model.events.map((e, i) => ({ productId, identifier: e.code, name: e.label, level: e.level, sort: i + 1 })))
        .onConflictDoNothing();
    }
    await db
      .insert(productCommand)
      .values(model.commands.map((c) => ({ productId, identifier: c, name: COMMAND_LABELS[c], requestParams: COMMAND_PARAMS[c], sort: COMMAND_NAMES.indexOf(c) + 1 })))
      .onConflictDoNothing();
  }
}

/** Product id of the standard product of each type. */
export async function standardProducts(db: DbOrTx): Promise<Map<DeviceType, number>> {
  const out = new Map<DeviceType, number>();
  for (const type of DEVICE_TYPES) {
    const [row] = await db.select({ id: product.id }).from(product).where(and(eq(product.code, standardProductCode(type)), eq(product.type, type)));
    if (row) out.set(type, row.id);
  }
  return out;
}
