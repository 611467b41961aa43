import { z } from 'zod';
import { id, idBody, idQuery, pageRequest, sortRequest } from './common.ts';
import { created, done, endpoint, isoTime, pageOf } from './endpoint.ts';
import { CONNECTION_FAILED, CONNECTION_SUCCEEDED, connectionTestResult } from './messaging.ts';
import { camelIdentifier, eventIdentifier } from './product.ts';

/**
 * IoT platform sync (issue 23; decision 0048; catalogue area "IoT"): an IoT application (a
 * company's connection to an external IoT platform: ThingsBoard or JetLinks, its address, its
 * credentials sealed at rest and never answered, its sync settings), the platform's products,
 * properties, events, commands, their parameters and devices as last synchronised (`iot_*`), the
 * sync runs (a dry-run diff an administrator approves before it is applied, and the record of each
 * run), and the relations that map a platform item to the console's thing model (product level,
 * or device level overriding it; switched on and off by `active`).
 *
 * Scope: every row belongs to its application's company; a user sees those of their companies.
 * A platform device bound to a console device must lie in a station the caller may see.
 * Beyond the catalogue (same conventions): POST /iot/sync/approve, /iot/sync/discard,
 * /iot/sync/query/page, /iot/sync/query/one, and POST /iot/device/bind.
 */

export { CONNECTION_FAILED, CONNECTION_SUCCEEDED };

const ref = z.number({ error: '须为数字编号' }).int().positive().max(2 ** 31 - 1);
const remark = z.string().trim().max(200, '备注不能超过200个字符').optional().nullable().transform((v) => (v ? v : null));
const name64 = (label: string) => z.string({ error: `${label}不能为空` }).trim().min(1, `${label}不能为空`).max(64, `${label}不能超过64个字符`);
const keyword = z.string().trim().max(64).optional();
const rowAudit = { createdAt: isoTime, updatedAt: isoTime };

// ── Platforms ─────────────────────────────────────────────────────────────────────────

export const IOT_PLATFORMS = ['thingsboard', 'jetlinks'] as const;
export type IotPlatform = (typeof IOT_PLATFORMS)[number];
export const IOT_PLATFORM_LABELS: Record<IotPlatform, string> = { thingsboard: 'ThingsBoard', jetlinks: 'JetLinks' };

/** A field an application of a platform needs (GET /iot/config/optionals). */
export const iotPlatformField = z.object({
  name: z.enum(['baseUrl', 'username', 'password']),
  label: z.string(),
  required: z.boolean(),
  /** Write-only: sealed at rest, never answered. */
  secret: z.boolean(),
  placeholder: z.string().nullable(),
});
export const iotPlatformOption = z.object({
  platform: z.enum(IOT_PLATFORMS),
  label: z.string(),
  /** What the platform's adapter reads: ThingsBoard device profiles, JetLinks products, … */
  description: z.string(),
  fields: z.array(iotPlatformField),
});
export type IotPlatformOption = z.infer<typeof iotPlatformOption>;

const fieldsOf = (userLabel: string, placeholder: string): z.infer<typeof iotPlatformField>[] => [
  { name: 'baseUrl', label: '平台地址', required: true, secret: false, placeholder },
  { name: 'username', label: userLabel, required: true, secret: false, placeholder: null },
  { name: 'password', label: '密码', required: true, secret: true, placeholder: null },
];
export const IOT_PLATFORM_OPTIONS: IotPlatformOption[] = [
  {
    platform: 'thingsboard', label: 'ThingsBoard',
    description: '设备配置（产品）、设备、遥测键与属性、告警类型（事件）、RPC（命令）；REST 接口 /api/auth/login',
    fields: fieldsOf('用户名（租户管理员邮箱）', 'https://thingsboard.example.com'),
  },
  {
    platform: 'jetlinks', label: 'JetLinks',
    description: '产品、设备、物模型（属性、事件、功能及其参数）；REST 接口 /authorize/login',
    fields: fieldsOf('用户名', 'http://jetlinks.example.com/api'),
  },
];

// ── Error texts the server answers (4xx tipMsg) ──────────────────────────────────────

export const IOT_ERRORS = {
  configNotFound: '物联网应用不存在',
  nameTaken: '该公司下已有同名物联网应用',
  passwordRequired: '密码不能为空',
  /** The address or the user changed: the stored password is not sent to another place or account. */
  secretMoved: '平台地址或用户名已修改，请重新输入密码',
  connectionFailed: (reason: string) => `连接失败：${reason}`,
  /** Signed in, but the platform's answer could not be read. */
  readFailed: (reason: string) => `读取平台数据失败：${reason}`,
  configDisabled: '物联网应用已停用',
  productNotFound: '物联网产品不存在',
  deviceNotFound: '物联网设备不存在',
  propertyNotFound: '物联网属性不存在',
  eventNotFound: '物联网事件不存在',
  commandNotFound: '物联网命令不存在',
  paramNotFound: '物联网参数不存在',
  syncNotFound: '同步记录不存在',
  syncNotPlanned: '该同步已处理，不能再批准或放弃',
  syncStale: '平台数据或本地数据在预览后已变化，请重新同步预览',
  syncBusy: '该应用正在同步，请稍后重试',
  relationNotFound: '关联不存在',
  unmappedNotFound: '未关联的平台数据项不存在',
  /** A JetLinks device's command without a command relation (ThingsBoard takes it as an RPC of the same name). */
  commandNotRelated: '该设备经物联网平台接入，此命令尚未关联平台功能',
  consoleProductNotFound: '产品不存在',
  unknownProperty: (identifier: string) => `产品没有标识为 ${identifier} 的属性`,
  unknownEvent: (identifier: string) => `产品没有标识为 ${identifier} 的事件`,
  unknownCommand: (identifier: string) => `产品没有标识为 ${identifier} 的命令`,
  unknownParam: (identifier: string) => `命令没有标识为 ${identifier} 的请求参数`,
  itemOfOtherProduct: '所选的平台项不属于该物联网产品',
  deviceOfOtherProduct: '所选的物联网设备不属于该物联网产品',
  otherConsoleProduct: (name: string) => `该物联网产品已关联到产品“${name}”，同一物联网产品只能关联一个产品`,
  relationExists: '该平台项在同一层级（产品或设备）已有关联',
  targetTaken: '该物模型项在同一层级（产品或设备）已被另一平台项关联',
  paramRelationExists: '该参数已关联',
  deviceTypeMismatch: '设备的产品与物联网产品关联的产品不一致',
} as const;

// ── Applications (/iot/config) ────────────────────────────────────────────────────────

const baseUrl = z
  .string({ error: '平台地址不能为空' })
  .trim()
  .min(1, '平台地址不能为空')
  .max(255, '平台地址不能超过255个字符')
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'http:' || u.protocol === 'https:') && !u.username && !u.password && !u.search && !u.hash;
    } catch {
      return false;
    }
  }, '平台地址须为 http(s):// 开头的地址（不含用户名、查询参数）')
  .transform((v) => v.replace(/\/+$/, ''));

const configFields = {
  companyId: ref,
  name: name64('应用名称'),
  platform: z.enum(IOT_PLATFORMS, { error: '平台类型不支持' }),
  baseUrl,
  username: name64('用户名').pipe(z.string().max(128)),
  /** Whether a sync's diff waits for an administrator's approval (else it is applied at once). */
  requireApproval: z.boolean().default(true),
  enabled: z.boolean().default(true),
  remark,
};
const secret = z.string().max(256, '密码不能超过256个字符');
export const iotConfigAdd = z.object({ ...configFields, password: secret.min(1, IOT_ERRORS.passwordRequired) });
export type IotConfigAdd = z.input<typeof iotConfigAdd>;
/** The password is optional on edit: absent or empty keeps the stored one (unless the address or user changed). */
export const iotConfigEdit = z.object({ id: ref, ...configFields, password: secret.optional().transform((v) => (v ? v : undefined)) });
export type IotConfigEdit = z.input<typeof iotConfigEdit>;
export const iotConfigFilter = z.object({ name: keyword, companyId: id.optional(), platform: z.enum(IOT_PLATFORMS).optional(), enabled: z.boolean().optional() });
export const iotConfigPage = pageRequest.extend(iotConfigFilter.shape).extend(sortRequest(['name', 'platform', 'createdAt']).shape);
export type IotConfigPage = z.input<typeof iotConfigPage>;
export const iotConfigRecord = z.object({
  id: z.number(),
  companyId: z.number(),
  companyName: z.string(),
  name: z.string(),
  platform: z.enum(IOT_PLATFORMS),
  baseUrl: z.string(),
  username: z.string(),
  /** The password itself is never answered. */
  passwordSet: z.boolean(),
  requireApproval: z.boolean(),
  enabled: z.boolean(),
  remark: z.string().nullable(),
  lastConnectAt: isoTime.nullable(),
  lastConnectOk: z.boolean().nullable(),
  lastConnectReason: z.string().nullable(),
  lastSyncAt: isoTime.nullable(),
  productCount: z.number(),
  deviceCount: z.number(),
  ...rowAudit,
});
export type IotConfigRecord = z.infer<typeof iotConfigRecord>;
export const iotConnectResult = connectionTestResult;
export type IotConnectResult = z.infer<typeof iotConnectResult>;

// ── What a sync reads (/iot/product, property, event, command, param, device) ───────

export const IOT_DATA_TYPES = ['int', 'long', 'float', 'double', 'bool', 'string', 'enum', 'date', 'object', 'array', 'unknown'] as const;
export type IotDataType = (typeof IOT_DATA_TYPES)[number];

const owned = { id: z.number(), configId: z.number(), configName: z.string(), companyId: z.number() };
export const iotProductRecord = z.object({
  ...owned,
  externalId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  propertyCount: z.number(),
  eventCount: z.number(),
  commandCount: z.number(),
  deviceCount: z.number(),
  /** The console product its relations map to (null: none yet). */
  productId: z.number().nullable(),
  productName: z.string().nullable(),
  syncedAt: isoTime,
});
export type IotProductRecord = z.infer<typeof iotProductRecord>;
export const iotProductFilter = z.object({ configId: id.optional(), name: keyword });
export const iotProductPage = pageRequest.extend(iotProductFilter.shape).extend(sortRequest(['name', 'syncedAt']).shape);

const itemOfProduct = { ...owned, iotProductId: z.number(), iotProductName: z.string(), identifier: z.string(), name: z.string() };
export const iotPropertyRecord = z.object({ ...itemOfProduct, dataType: z.enum(IOT_DATA_TYPES), unit: z.string().nullable(), source: z.string(), relatedIdentifier: z.string().nullable() });
export type IotPropertyRecord = z.infer<typeof iotPropertyRecord>;
export const iotEventRecord = z.object({ ...itemOfProduct, level: z.string().nullable(), relatedIdentifier: z.string().nullable() });
export type IotEventRecord = z.infer<typeof iotEventRecord>;
export const iotCommandRecord = z.object({ ...itemOfProduct, async: z.boolean(), relatedIdentifier: z.string().nullable() });
export type IotCommandRecord = z.infer<typeof iotCommandRecord>;
export const IOT_PARAM_OWNERS = ['command', 'event'] as const;
export const IOT_PARAM_DIRECTIONS = ['input', 'output'] as const;
export const iotParamRecord = z.object({
  ...owned,
  ownerKind: z.enum(IOT_PARAM_OWNERS),
  ownerId: z.number(),
  direction: z.enum(IOT_PARAM_DIRECTIONS),
  identifier: z.string(),
  name: z.string(),
  dataType: z.enum(IOT_DATA_TYPES),
  unit: z.string().nullable(),
});
export type IotParamRecord = z.infer<typeof iotParamRecord>;

/** Items of one platform product (or of every product the caller sees). */
export const iotItemFilter = z.object({ configId: id.optional(), iotProductId: id.optional(), keyword });
export const iotItemPage = pageRequest.extend(iotItemFilter.shape);
export const iotParamFilter = z
  .object({ commandId: id.optional(), eventId: id.optional(), direction: z.enum(IOT_PARAM_DIRECTIONS).optional() })
  .refine((f) => f.commandId !== undefined || f.eventId !== undefined, { message: '须指定命令或事件', path: ['commandId'] });

export const IOT_DEVICE_STATES = ['online', 'offline', 'inactive', 'unknown'] as const;
export type IotDeviceState = (typeof IOT_DEVICE_STATES)[number];
export const iotDeviceRecord = z.object({
  ...owned,
  iotProductId: z.number(),
  iotProductName: z.string(),
  externalId: z.string(),
  name: z.string(),
  /** The platform's connectivity as last synchronised. */
  state: z.enum(IOT_DEVICE_STATES),
  /** The console device it feeds (bound by code at sync, or by /iot/device/bind). */
  deviceId: z.number().nullable(),
  deviceCode: z.string().nullable(),
  siteName: z.string().nullable(),
  syncedAt: isoTime,
});
export type IotDeviceRecord = z.infer<typeof iotDeviceRecord>;
export const iotDeviceFilter = z.object({ configId: id.optional(), iotProductId: id.optional(), name: keyword, state: z.enum(IOT_DEVICE_STATES).optional() });
export const iotDevicePage = pageRequest.extend(iotDeviceFilter.shape).extend(sortRequest(['name', 'state', 'syncedAt']).shape);
export const iotDeviceBind = z.object({ id: ref, deviceId: ref.nullable() });

// ── Sync (/iot/sync) ──────────────────────────────────────────────────────────────────

export const IOT_SYNC_SCOPES = ['full', 'product', 'device'] as const;
export const IOT_SYNC_STATES = ['planned', 'applied', 'unchanged', 'discarded', 'failed'] as const;
export type IotSyncState = (typeof IOT_SYNC_STATES)[number];
export const IOT_SYNC_STATE_LABELS: Record<IotSyncState, string> = { planned: '待批准', applied: '已应用', unchanged: '无变化', discarded: '已放弃', failed: '失败' };
export const IOT_ITEM_KINDS = ['product', 'property', 'event', 'command', 'param', 'device'] as const;
export type IotItemKind = (typeof IOT_ITEM_KINDS)[number];
export const IOT_CHANGES = ['added', 'changed', 'removed'] as const;
export type IotChange = (typeof IOT_CHANGES)[number];

/** One line of a sync's diff. */
export const iotDiffItem = z.object({
  kind: z.enum(IOT_ITEM_KINDS),
  change: z.enum(IOT_CHANGES),
  /** The platform's id (products, devices) or the item's key under its owner (product/identifier, …). */
  key: z.string(),
  name: z.string(),
  /** Changed fields: before → after. */
  fields: z.array(z.object({ field: z.string(), before: z.unknown(), after: z.unknown() })),
});
export type IotDiffItem = z.infer<typeof iotDiffItem>;
export const iotSyncCounts = z.object({ added: z.number(), changed: z.number(), removed: z.number() });
export const iotSyncRecord = z.object({
  id: z.number(),
  configId: z.number(),
  configName: z.string(),
  companyId: z.number(),
  scope: z.enum(IOT_SYNC_SCOPES),
  /** The platform product or device a one-item sync read. */
  target: z.string().nullable(),
  state: z.enum(IOT_SYNC_STATES),
  ...iotSyncCounts.shape,
  error: z.string().nullable(),
  createdByName: z.string().nullable(),
  approvedByName: z.string().nullable(),
  createdAt: isoTime,
  appliedAt: isoTime.nullable(),
});
export type IotSyncRecord = z.infer<typeof iotSyncRecord>;
export const iotSyncDetail = iotSyncRecord.extend({ items: z.array(iotDiffItem) });
export type IotSyncDetail = z.infer<typeof iotSyncDetail>;
export const iotSyncFull = z.object({ configId: id });
export const iotSyncProduct = z.object({ productId: id });
export const iotSyncDevice = z.object({ deviceId: id });
export const iotSyncPage = pageRequest.extend({ configId: id.optional(), state: z.enum(IOT_SYNC_STATES).optional() });

// ── Relations (/iot/relate) ───────────────────────────────────────────────────────────

const colour = z.string().trim().regex(/^#[0-9a-fA-F]{6}$/, '颜色须为 #RRGGBB').transform((v) => v.toLowerCase());
/**
 * A platform value mapped to a console status (events: the event's value; enum properties: the
 * platform's enumeration): status values numeric and unique, platform values, labels and colours
 * unique (product-spec §5).
 */
export const iotValueMap = z
  .array(z.object({
    platformValue: z.string().trim().min(1, '平台值不能为空').max(64),
    status: z.number({ error: '状态值须为数字' }).int('状态值须为整数').min(-2_147_483_648).max(2_147_483_647),
    label: z.string().trim().min(1, '名称不能为空').max(32),
    colour: colour.optional(),
  }))
  .max(64)
  .default([])
  .superRefine((list, c) => {
    const seen = { platformValue: new Set<string>(), status: new Set<number>(), label: new Set<string>(), colour: new Set<string>() };
    list.forEach((e, i) => {
      if (seen.platformValue.has(e.platformValue)) c.addIssue({ code: 'custom', path: [i, 'platformValue'], message: `平台值 ${e.platformValue} 重复` });
      if (seen.status.has(e.status)) c.addIssue({ code: 'custom', path: [i, 'status'], message: `状态值 ${e.status} 重复` });
      if (seen.label.has(e.label)) c.addIssue({ code: 'custom', path: [i, 'label'], message: `名称 ${e.label} 重复` });
      if (e.colour && seen.colour.has(e.colour)) c.addIssue({ code: 'custom', path: [i, 'colour'], message: `颜色 ${e.colour} 重复` });
      seen.platformValue.add(e.platformValue);
      seen.status.add(e.status);
      seen.label.add(e.label);
      if (e.colour) seen.colour.add(e.colour);
    });
  });
export type IotValueMap = z.output<typeof iotValueMap>;

/** value × scale + offset: the platform's unit to the console property's. */
const scale = z.number({ error: '倍率须为数字' }).finite().refine((v) => v !== 0, '倍率不能为 0').default(1);
const offset = z.number({ error: '偏移须为数字' }).finite().default(0);

/** Where a relation applies: every device of the platform product, or one device (overriding the product's). */
const level = { iotProductId: ref, iotDeviceId: ref.nullable().optional().transform((v) => v ?? null), productId: ref, active: z.boolean().default(true), remark };

export const iotRelatePropertyAdd = z.object({ ...level, iotPropertyId: ref, identifier: camelIdentifier, scale, offset, valueMap: iotValueMap });
export const iotRelatePropertyEdit = iotRelatePropertyAdd.extend({ id: ref });
export const iotRelateEventAdd = z.object({ ...level, iotEventId: ref, identifier: eventIdentifier, valueMap: iotValueMap });
export const iotRelateEventEdit = iotRelateEventAdd.extend({ id: ref });
export const iotRelateCommandAdd = z.object({ ...level, iotCommandId: ref, identifier: camelIdentifier });
export const iotRelateCommandEdit = iotRelateCommandAdd.extend({ id: ref });
export const iotRelateParamAdd = z.object({ relateCommandId: ref, iotParamId: ref, identifier: camelIdentifier, scale, offset, valueMap: iotValueMap });
export const iotRelateParamEdit = iotRelateParamAdd.extend({ id: ref });
export type IotRelatePropertyAdd = z.input<typeof iotRelatePropertyAdd>;
export type IotRelateEventAdd = z.input<typeof iotRelateEventAdd>;
export type IotRelateCommandAdd = z.input<typeof iotRelateCommandAdd>;
export type IotRelateParamAdd = z.input<typeof iotRelateParamAdd>;

export const iotRelateFilter = z.object({
  configId: id.optional(),
  iotProductId: id.optional(),
  /** One device's own relations. */
  iotDeviceId: id.optional(),
  productLevel: z.boolean().optional(),
  active: z.boolean().optional(),
});
export const iotRelatePage = pageRequest.extend(iotRelateFilter.shape);
const relationBase = {
  id: z.number(), configId: z.number(), companyId: z.number(), iotProductId: z.number(), iotProductName: z.string(), iotDeviceId: z.number().nullable(),
  iotDeviceName: z.string().nullable(), productId: z.number(), productName: z.string(), identifier: z.string(), active: z.boolean(), remark: z.string().nullable(),
  ...rowAudit,
};
const valueMapRecord = z.array(z.object({ platformValue: z.string(), status: z.number(), label: z.string(), colour: z.string().optional() }));
export const iotRelatePropertyRecord = z.object({ ...relationBase, iotPropertyId: z.number(), iotPropertyIdentifier: z.string(), scale: z.number(), offset: z.number(), valueMap: valueMapRecord });
export const iotRelateEventRecord = z.object({ ...relationBase, iotEventId: z.number(), iotEventIdentifier: z.string(), valueMap: valueMapRecord });
export const iotRelateCommandRecord = z.object({ ...relationBase, iotCommandId: z.number(), iotCommandIdentifier: z.string(), paramCount: z.number() });
export const iotRelateParamRecord = z.object({
  id: z.number(), relateCommandId: z.number(), iotParamId: z.number(), iotParamIdentifier: z.string(), identifier: z.string(), scale: z.number(), offset: z.number(),
  valueMap: valueMapRecord, ...rowAudit,
});
export type IotRelatePropertyRecord = z.infer<typeof iotRelatePropertyRecord>;
export type IotRelateEventRecord = z.infer<typeof iotRelateEventRecord>;
export type IotRelateCommandRecord = z.infer<typeof iotRelateCommandRecord>;
export type IotRelateParamRecord = z.infer<typeof iotRelateParamRecord>;
export const iotRelateParamFilter = z.object({ relateCommandId: id });
export const iotActiveResult = z.object({ id: z.number(), active: z.boolean() });

// ── Endpoints ─────────────────────────────────────────────────────────────────────────

export const iotConfigEndpoints = {
  list: endpoint({ method: 'POST', path: '/iot/config/query/list', body: iotConfigFilter, response: z.array(iotConfigRecord) }),
  page: endpoint({ method: 'POST', path: '/iot/config/query/page', body: iotConfigPage, response: pageOf(iotConfigRecord) }),
  one: endpoint({ method: 'POST', path: '/iot/config/query/one', body: idBody, response: iotConfigRecord }),
  add: endpoint({ method: 'POST', path: '/iot/config/add', body: iotConfigAdd, response: created }),
  edit: endpoint({ method: 'POST', path: '/iot/config/edit', body: iotConfigEdit, response: done }),
  delete: endpoint({ method: 'GET', path: '/iot/config/delete', query: idQuery, response: done }),
  optionals: endpoint({ method: 'GET', path: '/iot/config/optionals', response: z.array(iotPlatformOption) }),
  connect: endpoint({ method: 'GET', path: '/iot/config/connect', query: idQuery, response: iotConnectResult }),
};

export const iotSyncEndpoints = {
  full: endpoint({ method: 'GET', path: '/iot/sync/full', query: iotSyncFull, response: iotSyncDetail }),
  product: endpoint({ method: 'GET', path: '/iot/sync/product/one', query: iotSyncProduct, response: iotSyncDetail }),
  device: endpoint({ method: 'GET', path: '/iot/sync/device/one', query: iotSyncDevice, response: iotSyncDetail }),
  approve: endpoint({ method: 'POST', path: '/iot/sync/approve', body: idBody, response: iotSyncDetail }),
  discard: endpoint({ method: 'POST', path: '/iot/sync/discard', body: idBody, response: done }),
  page: endpoint({ method: 'POST', path: '/iot/sync/query/page', body: iotSyncPage, response: pageOf(iotSyncRecord) }),
  one: endpoint({ method: 'POST', path: '/iot/sync/query/one', body: idBody, response: iotSyncDetail }),
};

export const iotQueryEndpoints = {
  productList: endpoint({ method: 'POST', path: '/iot/product/query/list', body: iotProductFilter, response: z.array(iotProductRecord) }),
  productPage: endpoint({ method: 'POST', path: '/iot/product/query/page', body: iotProductPage, response: pageOf(iotProductRecord) }),
  productOne: endpoint({ method: 'POST', path: '/iot/product/query/one', body: idBody, response: iotProductRecord }),
  propertyList: endpoint({ method: 'POST', path: '/iot/property/query/list', body: iotItemFilter, response: z.array(iotPropertyRecord) }),
  propertyPage: endpoint({ method: 'POST', path: '/iot/property/query/page', body: iotItemPage, response: pageOf(iotPropertyRecord) }),
  eventList: endpoint({ method: 'POST', path: '/iot/event/query/list', body: iotItemFilter, response: z.array(iotEventRecord) }),
  eventPage: endpoint({ method: 'POST', path: '/iot/event/query/page', body: iotItemPage, response: pageOf(iotEventRecord) }),
  eventOne: endpoint({ method: 'POST', path: '/iot/event/query/one', body: idBody, response: iotEventRecord }),
  commandList: endpoint({ method: 'POST', path: '/iot/command/query/list', body: iotItemFilter, response: z.array(iotCommandRecord) }),
  commandPage: endpoint({ method: 'POST', path: '/iot/command/query/page', body: iotItemPage, response: pageOf(iotCommandRecord) }),
  commandOne: endpoint({ method: 'POST', path: '/iot/command/query/one', body: idBody, response: iotCommandRecord }),
  paramList: endpoint({ method: 'POST', path: '/iot/param/query/list', body: iotParamFilter, response: z.array(iotParamRecord) }),
  devicePage: endpoint({ method: 'POST', path: '/iot/device/query/page', body: iotDevicePage, response: pageOf(iotDeviceRecord) }),
  deviceOne: endpoint({ method: 'POST', path: '/iot/device/query/one', body: idBody, response: iotDeviceRecord }),
  deviceBind: endpoint({ method: 'POST', path: '/iot/device/bind', body: iotDeviceBind, response: done }),
};

export const iotRelateEndpoints = {
  eventPage: endpoint({ method: 'POST', path: '/iot/relate/event/query/page', body: iotRelatePage, response: pageOf(iotRelateEventRecord) }),
  eventOne: endpoint({ method: 'POST', path: '/iot/relate/event/query/one', body: idBody, response: iotRelateEventRecord }),
  eventAdd: endpoint({ method: 'POST', path: '/iot/relate/event/add', body: iotRelateEventAdd, response: created }),
  eventEdit: endpoint({ method: 'POST', path: '/iot/relate/event/edit', body: iotRelateEventEdit, response: done }),
  eventDelete: endpoint({ method: 'GET', path: '/iot/relate/event/delete', query: idQuery, response: done }),
  eventActive: endpoint({ method: 'GET', path: '/iot/relate/event/active', query: idQuery, response: iotActiveResult }),
  paramList: endpoint({ method: 'POST', path: '/iot/relate/param/query/list', body: iotRelateParamFilter, response: z.array(iotRelateParamRecord) }),
  paramOne: endpoint({ method: 'POST', path: '/iot/relate/param/query/one', body: idBody, response: iotRelateParamRecord }),
  paramAdd: endpoint({ method: 'POST', path: '/iot/relate/param/add', body: iotRelateParamAdd, response: created }),
  paramEdit: endpoint({ method: 'POST', path: '/iot/relate/param/edit', body: iotRelateParamEdit, response: done }),
  paramDelete: endpoint({ method: 'GET', path: '/iot/relate/param/delete', query: idQuery, response: done }),
  commandPage: endpoint({ method: 'POST', path: '/iot/relate/command/query/page', body: iotRelatePage, response: pageOf(iotRelateCommandRecord) }),
  commandOne: endpoint({ method: 'POST', path: '/iot/relate/command/query/one', body: idBody, response: iotRelateCommandRecord }),
  commandAdd: endpoint({ method: 'POST', path: '/iot/relate/command/add', body: iotRelateCommandAdd, response: created }),
  commandEdit: endpoint({ method: 'POST', path: '/iot/relate/command/edit', body: iotRelateCommandEdit, response: done }),
  commandDelete: endpoint({ method: 'GET', path: '/iot/relate/command/delete', query: idQuery, response: done }),
  commandActive: endpoint({ method: 'GET', path: '/iot/relate/command/active', query: idQuery, response: iotActiveResult }),
  propertyPage: endpoint({ method: 'POST', path: '/iot/relate/property/query/page', body: iotRelatePage, response: pageOf(iotRelatePropertyRecord) }),
  propertyOne: endpoint({ method: 'POST', path: '/iot/relate/property/query/one', body: idBody, response: iotRelatePropertyRecord }),
  propertyAdd: endpoint({ method: 'POST', path: '/iot/relate/property/add', body: iotRelatePropertyAdd, response: created }),
  propertyEdit: endpoint({ method: 'POST', path: '/iot/relate/property/edit', body: iotRelatePropertyEdit, response: done }),
  propertyDelete: endpoint({ method: 'GET', path: '/iot/relate/property/delete', query: idQuery, response: done }),
  propertyActive: endpoint({ method: 'GET', path: '/iot/relate/property/active', query: idQuery, response: iotActiveResult }),
};

// ── Unmapped keys inbox (beyond the catalogue; decision 0051) ─────────────────────────

export const iotUnmappedFilter = z.object({
  configId: id.optional(),
  iotProductId: id.optional(),
  key: keyword,
  /** Dismissed ones only (true), or the others (absent, false). */
  dismissed: z.boolean().optional(),
});
export const iotUnmappedPage = pageRequest.extend(iotUnmappedFilter.shape).extend(sortRequest(['key', 'count', 'lastSeenAt']).shape);
export const iotUnmappedRecord = z.object({
  id: z.number(), configId: z.number(), configName: z.string(), companyId: z.number(), iotProductId: z.number(), iotProductName: z.string(), key: z.string(),
  /** The latest sample values (as text). */
  samples: z.array(z.string()),
  devices: z.array(z.object({ externalId: z.string(), name: z.string() })),
  count: z.number(), firstSeenAt: isoTime, lastSeenAt: isoTime, dismissed: z.boolean(),
});
export type IotUnmappedRecord = z.infer<typeof iotUnmappedRecord>;
/** Relate in one step: a property relation of the key's platform product to a console product's property. */
export const iotUnmappedRelate = z.object({ id: ref, productId: ref, identifier: camelIdentifier, scale, offset, valueMap: iotValueMap, remark });
export type IotUnmappedRelate = z.input<typeof iotUnmappedRelate>;

export const iotUnmappedEndpoints = {
  page: endpoint({ method: 'POST', path: '/iot/unmapped/query/page', body: iotUnmappedPage, response: pageOf(iotUnmappedRecord) }),
  relate: endpoint({ method: 'POST', path: '/iot/unmapped/relate', body: iotUnmappedRelate, response: created }),
  dismiss: endpoint({ method: 'GET', path: '/iot/unmapped/dismiss', query: idQuery, response: done }),
};
