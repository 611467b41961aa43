import { z } from 'zod';
import { id, idBody, idQuery, pageRequest, sortRequest } from './common.ts';
import { created, done, endpoint, FILE, isoTime, pageOf } from './endpoint.ts';
import { defineStateMachine } from './state-machine.ts';
import { DEVICE_TYPES } from './telemetry.ts';

/**
 * Firmware (issue 22; DOMAIN.md §6; product-spec §4 states; decision 0047): upgrade packages
 * (uploaded in chunks, resumable, SHA-256 computed by the server, semantic versions, detached
 * signatures verified against configured public keys), the installation's firmware settings,
 * rollouts in groups (canary first, success and error thresholds, approval by a second user,
 * start time and maintenance windows, the safe gate), per-device upgrade tasks with their step
 * history, log captures, and the compliance view. Not in the catalogue (routes only): the calls
 * follow its conventions (POST …/query/page, /query/one, /query/list, /add, /edit;
 * GET …/delete?id; actions as POST) under /firmware/….
 *
 * Scope: packages, public keys, rollouts and log captures belong to a company; a user sees those
 * of their companies (the company subtree under their own). A rollout's and a capture's devices
 * must lie in stations the caller may see. Devices fetch a package (and put a log) with a
 * short-lived token instead of a session (`/firmware/device/…`).
 */

// ── Shared pieces ─────────────────────────────────────────────────────────────────────

const ref = z.number({ error: '须为数字编号' }).int().positive().max(2 ** 31 - 1);
const refs = z.array(ref).max(10_000).default([]);
const remark = z.string().trim().max(200, '备注不能超过200个字符').optional().nullable().transform((v) => (v ? v : null));
const name64 = (label: string) => z.string({ error: `${label}不能为空` }).trim().min(1, `${label}不能为空`).max(64, `${label}不能超过64个字符`);
const rowAudit = { createdAt: isoTime, updatedAt: isoTime, createdByName: z.string().nullable() };
const rowCompany = { id: z.number(), companyId: z.number(), companyName: z.string() };

/** Semantic Versioning 2.0.0 (semver.org's own expression): 1.2.3, 1.2.3-rc.1, 1.2.3+build.5. No leading "v". */
export const SEMVER_PATTERN =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;
export const VERSION_NOT_SEMVER = '版本号须为语义化版本（如 1.2.3、2.0.0-rc.1）';
export const firmwareVersion = z.string({ error: VERSION_NOT_SEMVER }).trim().max(32, '版本号不能超过32个字符').regex(SEMVER_PATTERN, VERSION_NOT_SEMVER);

/** "May upgrade from": a semver range (npm's syntax: `>=1.2.0 <2.0.0`, `^1.4`, `1.x || 2.0.x`); empty: any version. Checked by the server. */
export const UPGRADE_FROM_INVALID = '可升级的起始版本须为语义化版本范围（如 >=1.2.0 <2.0.0、^1.4.0）';
export const upgradeFrom = z.string().trim().max(200, '可升级的起始版本不能超过200个字符').optional().nullable().transform((v) => (v ? v : null));

export const SHA256_INVALID = 'SHA-256 须为64位十六进制';
export const sha256Hex = z.string().trim().toLowerCase().regex(/^[0-9a-f]{64}$/, SHA256_INVALID);

/** Firmware name as devices report it (device.firmware_name). */
export const firmwareName = z.string({ error: '固件名称不能为空' }).trim().min(1, '固件名称不能为空').max(64, '固件名称不能超过64个字符').regex(/^[^\p{Cc}]+$/u, '固件名称不能包含控制字符');

/** A device type a package is for (the product's type when a product is given). */
export const firmwareDeviceType = z.enum(DEVICE_TYPES, { error: '设备类型不支持' });

// ── Error texts the server answers (4xx tipMsg) ──────────────────────────────────────

export const FIRMWARE_ERRORS = {
  tooLarge: (limitMb: number) => `升级包超过大小上限 ${limitMb} MB`,
  sha256Mismatch: '文件的 SHA-256 与声明的不一致，升级包未保存',
  signatureInvalid: '签名校验失败：没有一个已启用的公钥能验证该签名，升级包未保存',
  signatureMalformed: '签名须为 Base64 编码',
  unsignedRefused: '当前设置不允许上传未签名的升级包',
  productTypeMismatch: '所选产品的设备类型与升级包的设备类型不一致',
  duplicateVersion: '同一产品（设备类型）的该固件已有此版本',
  versionNotNewer: '升级包版本须高于可升级的起始版本范围',
  uploadOffset: (expected: number) => `分片偏移量不正确，服务器已接收 ${expected} 字节，请从该位置续传`,
  uploadIncomplete: (received: number, size: number) => `文件尚未上传完整（已接收 ${received} / ${size} 字节）`,
  uploadBeyondSize: '分片超出声明的文件大小',
  uploadBusy: '该上传的另一个分片正在写入，请稍后查询进度后续传',
  uploadGone: '上传会话不存在或已结束',
  packageInUse: (rollout: string) => `升级包正被执行中的升级任务「${rollout}」使用，不能删除`,
  packageWithdrawn: '升级包已撤回，不能用于新的升级任务',
  keyInvalid: '公钥须为 PEM 格式的 Ed25519 或 ECDSA P-256 公钥',
  keyDuplicate: '该公钥已存在',
  tokenInvalid: '下载凭证无效或已过期',
  settingsAdminOnly: '只有管理员可以修改固件设置',
  foreignSite: '目标包含无权访问的站点',
  noTargets: '没有符合条件的目标设备',
  approvalSelf: '审批须由创建人以外的用户进行',
} as const;

// ── States (product-spec §4), with their source-text labels ─────────────────────────

/**
 * A device's upgrade task. The spec's states: pending start, issued success, issued failed,
 * download failed, verify failed, flash failed, upgrade failed, success; the steps between them
 * (downloading, downloaded and waiting to flash, flashing) and cancelled (a stopped rollout's
 * devices not yet started) are this product's.
 */
export const FIRMWARE_TASK_STATES = [
  'pendingStart', 'issuedSuccess', 'issuedFailed', 'downloading', 'downloaded', 'flashing',
  'downloadFailed', 'verifyFailed', 'flashFailed', 'upgradeFailed', 'success', 'cancelled',
] as const;
export type FirmwareTaskState = (typeof FIRMWARE_TASK_STATES)[number];
export const FIRMWARE_TASK_STATE_LABELS: Record<FirmwareTaskState, string> = {
  pendingStart: '待开始',
  issuedSuccess: '下发成功',
  issuedFailed: '下发失败',
  downloading: '下载中',
  downloaded: '已下载待刷写',
  flashing: '刷写中',
  downloadFailed: '下载失败',
  verifyFailed: '校验失败',
  flashFailed: '刷写失败',
  upgradeFailed: '升级失败',
  success: '升级成功',
  cancelled: '已取消',
};
/** Task states that end it (a retry makes a failed one pending again). */
export const FIRMWARE_TASK_FINAL_STATES: readonly FirmwareTaskState[] = ['issuedFailed', 'downloadFailed', 'verifyFailed', 'flashFailed', 'upgradeFailed', 'success', 'cancelled'];
export const FIRMWARE_TASK_FAILED_STATES: readonly FirmwareTaskState[] = ['issuedFailed', 'downloadFailed', 'verifyFailed', 'flashFailed', 'upgradeFailed'];

/** Why a task waits before flashing (the safe gate and the window), shown beside its state. */
export const FIRMWARE_WAIT_REASONS = ['outsideWindow', 'notStarted', 'storageActive', 'socOutOfBand', 'alarmOpen', 'dischargeWindow', 'deviceOffline'] as const;
export type FirmwareWaitReason = (typeof FIRMWARE_WAIT_REASONS)[number];
export const FIRMWARE_WAIT_REASON_LABELS: Record<FirmwareWaitReason, string> = {
  outsideWindow: '不在维护时段内',
  notStarted: '未到开始时间',
  storageActive: '储能未处于空闲或待机',
  socOutOfBand: 'SOC 不在允许范围内',
  alarmOpen: '站点有未结束的一、二级告警',
  dischargeWindow: '处于运行策略的放电时段',
  deviceOffline: '设备离线',
};

/** A rollout: awaiting approval (two-person rule), ready, running, paused, finished, stopped, rejected. */
export const FIRMWARE_ROLLOUT_STATES = ['pendingApproval', 'ready', 'running', 'paused', 'finished', 'stopped', 'rejected'] as const;
export type FirmwareRolloutState = (typeof FIRMWARE_ROLLOUT_STATES)[number];
export const FIRMWARE_ROLLOUT_STATE_LABELS: Record<FirmwareRolloutState, string> = {
  pendingApproval: '待审批',
  ready: '待开始',
  running: '升级中',
  paused: '已暂停',
  finished: '已完成',
  stopped: '已停止',
  rejected: '已驳回',
};
export const FIRMWARE_ROLLOUT_ACTIONS = ['approve', 'reject', 'start', 'pause', 'resume', 'stop', 'retry', 'edit', 'delete'] as const;
export type FirmwareRolloutAction = (typeof FIRMWARE_ROLLOUT_ACTIONS)[number];
/** The rollout's transitions: the server enforces them, the console offers only these actions. */
export const FIRMWARE_ROLLOUT_MACHINE = defineStateMachine<FirmwareRolloutState, FirmwareRolloutAction>({
  name: 'firmware.rollout',
  states: FIRMWARE_ROLLOUT_STATES,
  stateLabels: FIRMWARE_ROLLOUT_STATE_LABELS,
  actionLabels: { approve: '审批通过', reject: '驳回', start: '开始升级', pause: '暂停', resume: '继续', stop: '停止', retry: '重试失败设备', edit: '编辑', delete: '删除' },
  transitions: {
    approve: { from: ['pendingApproval'], to: 'ready' },
    reject: { from: ['pendingApproval'], to: 'rejected' },
    start: { from: ['ready'], to: 'running' },
    pause: { from: ['running'], to: 'paused' },
    resume: { from: ['paused'], to: 'running' },
    stop: { from: ['running', 'paused', 'ready', 'pendingApproval'], to: 'stopped' },
    retry: { from: ['running', 'paused', 'finished'], to: 'running' },
    edit: { from: ['pendingApproval', 'ready', 'rejected'], to: 'same' },
    delete: { from: ['pendingApproval', 'ready', 'rejected', 'finished', 'stopped'], to: 'same' },
  },
});

/** A rollout group: waiting for the previous one, running, reached its success threshold, finished, paused on its error threshold, cancelled. */
export const FIRMWARE_GROUP_STATES = ['waiting', 'running', 'succeeded', 'finished', 'errorThreshold', 'cancelled'] as const;
export type FirmwareGroupState = (typeof FIRMWARE_GROUP_STATES)[number];
export const FIRMWARE_GROUP_STATE_LABELS: Record<FirmwareGroupState, string> = {
  waiting: '等待中',
  running: '执行中',
  succeeded: '已达成功阈值',
  finished: '已完成',
  errorThreshold: '失败超阈值',
  cancelled: '已取消',
};

/** A package: released (usable by rollouts, counted as the latest), or withdrawn. */
export const FIRMWARE_PACKAGE_STATES = ['released', 'withdrawn'] as const;
export type FirmwarePackageState = (typeof FIRMWARE_PACKAGE_STATES)[number];
export const FIRMWARE_PACKAGE_STATE_LABELS: Record<FirmwarePackageState, string> = { released: '已发布', withdrawn: '已撤回' };

/** A chunked upload session. */
export const FIRMWARE_UPLOAD_STATES = ['uploading', 'finished', 'aborted'] as const;
export type FirmwareUploadState = (typeof FIRMWARE_UPLOAD_STATES)[number];
export const FIRMWARE_UPLOAD_STATE_LABELS: Record<FirmwareUploadState, string> = { uploading: '上传中', finished: '已完成', aborted: '已放弃' };

/** One device of a log capture. The spec's: uploading, upload complete, upload timeout, upload failed; pending (command not yet issued) is this product's. */
export const FIRMWARE_LOG_STATES = ['pending', 'uploading', 'uploaded', 'timeout', 'failed'] as const;
export type FirmwareLogState = (typeof FIRMWARE_LOG_STATES)[number];
export const FIRMWARE_LOG_STATE_LABELS: Record<FirmwareLogState, string> = {
  pending: '待下发',
  uploading: '上传中',
  uploaded: '上传完成',
  timeout: '上传超时',
  failed: '上传失败',
};
/** A log capture as a whole: running until every device ended, then finished. */
export const FIRMWARE_CAPTURE_STATES = ['running', 'finished'] as const;
export type FirmwareCaptureState = (typeof FIRMWARE_CAPTURE_STATES)[number];
export const FIRMWARE_CAPTURE_STATE_LABELS: Record<FirmwareCaptureState, string> = { running: '抓取中', finished: '已结束' };

/** Signature algorithms of the public keys (detached signature over the file's bytes). */
export const FIRMWARE_KEY_ALGORITHMS = ['ed25519', 'ecdsaP256'] as const;
export type FirmwareKeyAlgorithm = (typeof FIRMWARE_KEY_ALGORITHMS)[number];
export const FIRMWARE_KEY_ALGORITHM_LABELS: Record<FirmwareKeyAlgorithm, string> = { ed25519: 'Ed25519', ecdsaP256: 'ECDSA P-256 (SHA-256)' };

// ── Settings (/firmware/setting) ──────────────────────────────────────────────────────

const percent = (label: string) => z.number({ error: `${label}须为1-100` }).int(`${label}须为1-100`).min(1, `${label}须为1-100`).max(100, `${label}须为1-100`);
const minutesIn = (label: string, max: number) => z.number({ error: `${label}须为1-${max}` }).int(`${label}须为1-${max}`).min(1, `${label}须为1-${max}`).max(max, `${label}须为1-${max}`);

export const FIRMWARE_SETTING_DEFAULTS = {
  maxPackageMb: 256,
  allowUnsigned: true,
  tokenTtlMinutes: 30,
  successThreshold: 50,
  errorThreshold: 50,
  requireApproval: false,
  commandTimeoutSeconds: 30,
  downloadTimeoutMinutes: 30,
  flashTimeoutMinutes: 20,
  socMin: 20,
  socMax: 90,
  logTimeoutMinutes: 10,
} as const;

/** The installation's firmware settings (one row; every firmware page reads them, an administrator edits them). */
export const firmwareSettingEdit = z
  .object({
    /** Largest package file, MB (1–2048). */
    maxPackageMb: z.number({ error: '大小上限须为1-2048 MB' }).int().min(1, '大小上限须为1-2048 MB').max(2048, '大小上限须为1-2048 MB'),
    /** Whether a package without a signature may be uploaded. */
    allowUnsigned: z.boolean(),
    /** Lifetime of a device's download (and log upload) token, minutes. */
    tokenTtlMinutes: minutesIn('凭证有效期', 1440),
    /** Defaults of a new rollout (%). */
    successThreshold: percent('成功阈值'),
    errorThreshold: percent('失败阈值'),
    /** Whether a new rollout needs a second user's approval by default. */
    requireApproval: z.boolean(),
    commandTimeoutSeconds: z.number().int().min(5, '命令超时须为5-600秒').max(600, '命令超时须为5-600秒'),
    downloadTimeoutMinutes: minutesIn('下载超时', 1440),
    flashTimeoutMinutes: minutesIn('刷写超时', 1440),
    /** The safe gate's SOC band (%). */
    socMin: z.number().min(0).max(100),
    socMax: z.number().min(0).max(100),
    /** Log capture: a device that has not completed its upload by then is "upload timeout". */
    logTimeoutMinutes: minutesIn('日志上传超时', 1440),
  })
  .refine((v) => v.socMin < v.socMax, { message: 'SOC 下限须小于上限', path: ['socMax'] });
export type FirmwareSettingEdit = z.input<typeof firmwareSettingEdit>;
export const firmwareSettingRecord = z.object({
  maxPackageMb: z.number(),
  allowUnsigned: z.boolean(),
  tokenTtlMinutes: z.number(),
  successThreshold: z.number(),
  errorThreshold: z.number(),
  requireApproval: z.boolean(),
  commandTimeoutSeconds: z.number(),
  downloadTimeoutMinutes: z.number(),
  flashTimeoutMinutes: z.number(),
  socMin: z.number(),
  socMax: z.number(),
  logTimeoutMinutes: z.number(),
  updatedAt: isoTime,
  /** Whether the caller may edit them (an administrator). */
  editable: z.boolean(),
});
export type FirmwareSettingRecord = z.infer<typeof firmwareSettingRecord>;

// ── Public keys (/firmware/key) ───────────────────────────────────────────────────────

const keyFields = {
  companyId: ref,
  name: name64('公钥名称'),
  enabled: z.boolean().default(true),
  remark,
};
/** A public key: PEM (SPKI) of an Ed25519 or ECDSA P-256 key; the algorithm is read from it. */
export const firmwareKeyAdd = z.object({
  ...keyFields,
  publicKeyPem: z.string({ error: FIRMWARE_ERRORS.keyInvalid }).trim().min(1, FIRMWARE_ERRORS.keyInvalid).max(4096, FIRMWARE_ERRORS.keyInvalid),
});
export type FirmwareKeyAdd = z.input<typeof firmwareKeyAdd>;
/** Name, enabled and remark change; the key itself does not (add another, disable this one). */
export const firmwareKeyEdit = z.object({ id: ref, ...keyFields });
export type FirmwareKeyEdit = z.input<typeof firmwareKeyEdit>;
export const firmwareKeyPage = pageRequest
  .extend({ name: z.string().trim().max(64).optional(), companyId: id.optional(), algorithm: z.enum(FIRMWARE_KEY_ALGORITHMS).optional(), enabled: z.boolean().optional() })
  .extend(sortRequest(['name', 'algorithm', 'enabled', 'createdAt']).shape);
export type FirmwareKeyPage = z.input<typeof firmwareKeyPage>;
export const firmwareKeyRecord = z.object({
  ...rowCompany,
  name: z.string(),
  algorithm: z.enum(FIRMWARE_KEY_ALGORITHMS),
  publicKeyPem: z.string(),
  /** SHA-256 of the key's DER (SPKI), hex. */
  fingerprint: z.string(),
  enabled: z.boolean(),
  remark: z.string().nullable(),
  /** Packages whose signature this key verified. */
  packageCount: z.number(),
  ...rowAudit,
});
export type FirmwareKeyRecord = z.infer<typeof firmwareKeyRecord>;

// ── Packages (/firmware/package) ──────────────────────────────────────────────────────

/**
 * Starts a chunked upload: the package's description is checked now (semver, device type against
 * the product, a version not yet uploaded, the size against the settings' limit), so a bad one is
 * refused before any byte is sent. `sha256` (optional) is compared with what the server computes;
 * `signature` is the detached signature (base64) of the file's bytes, verified at finish.
 */
export const firmwareUploadStart = z.object({
  companyId: ref,
  deviceType: firmwareDeviceType,
  /** A product of that type; null: every product of the type. */
  productId: ref.nullable().default(null),
  name: firmwareName,
  version: firmwareVersion,
  upgradeFrom,
  releaseNotes: z.string().trim().max(10_000, '发布说明不能超过10000个字符').optional().nullable().transform((v) => (v ? v : null)),
  fileName: z.string({ error: '文件名不能为空' }).trim().min(1, '文件名不能为空').max(200, '文件名不能超过200个字符'),
  /** Declared size in bytes. */
  size: z.number({ error: '文件大小须为正整数' }).int('文件大小须为正整数').positive('文件大小须为正整数').max(Number.MAX_SAFE_INTEGER),
  sha256: sha256Hex.optional().nullable().transform((v) => v ?? null),
  signature: z.string().trim().max(1024, FIRMWARE_ERRORS.signatureMalformed).regex(/^[A-Za-z0-9+/=\s]*$/, FIRMWARE_ERRORS.signatureMalformed).optional().nullable().transform((v) => (v ? v.replace(/\s+/g, '') : null)),
});
export type FirmwareUploadStart = z.input<typeof firmwareUploadStart>;

/** An upload session's progress: bytes the server holds; a client resumes by sending from `received`. */
export const firmwareUploadStatus = z.object({
  uploadId: z.string(),
  state: z.enum(FIRMWARE_UPLOAD_STATES),
  size: z.number(),
  received: z.number(),
  /** The chunk size the console sends (the server takes any up to FIRMWARE_MAX_CHUNK_BYTES). */
  chunkSize: z.number(),
  expiresAt: isoTime,
  /** The package made by finish. */
  packageId: z.number().nullable(),
});
export type FirmwareUploadStatus = z.infer<typeof firmwareUploadStatus>;
export const FIRMWARE_CHUNK_BYTES = 4 * 1024 * 1024;
export const FIRMWARE_MAX_CHUNK_BYTES = 16 * 1024 * 1024;
/** An upload untouched this long is dropped with its bytes. */
export const FIRMWARE_UPLOAD_TTL_HOURS = 24;

export const uploadIdSchema = z.string({ error: '上传会话不能为空' }).trim().regex(/^[A-Za-z0-9_-]{16,64}$/, FIRMWARE_ERRORS.uploadGone);
export const firmwareUploadRef = z.object({ uploadId: uploadIdSchema });
/**
 * One chunk: the multipart field `file` holds the bytes that start at `offset` (query). A chunk
 * that starts before what the server holds is taken from there on (a re-send after a broken
 * connection); one that starts after it is refused naming the offset to resume from.
 */
export const firmwareUploadChunk = z.object({ uploadId: uploadIdSchema, offset: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER) });

export const firmwarePackageEdit = z.object({
  id: ref,
  upgradeFrom,
  releaseNotes: firmwareUploadStart.shape.releaseNotes,
});
export type FirmwarePackageEdit = z.input<typeof firmwarePackageEdit>;

export const firmwarePackageFilter = z.object({
  name: z.string().trim().max(64).optional(),
  version: z.string().trim().max(32).optional(),
  deviceType: firmwareDeviceType.optional(),
  productId: id.optional(),
  companyId: id.optional(),
  state: z.enum(FIRMWARE_PACKAGE_STATES).optional(),
  signed: z.boolean().optional(),
});
export type FirmwarePackageFilter = z.infer<typeof firmwarePackageFilter>;
export const firmwarePackagePage = pageRequest.extend(firmwarePackageFilter.shape).extend(sortRequest(['name', 'version', 'deviceType', 'size', 'createdAt']).shape);
export type FirmwarePackagePage = z.input<typeof firmwarePackagePage>;

export const firmwarePackageRecord = z.object({
  ...rowCompany,
  deviceType: z.enum(DEVICE_TYPES),
  productId: z.number().nullable(),
  productName: z.string().nullable(),
  name: z.string(),
  version: z.string(),
  upgradeFrom: z.string().nullable(),
  releaseNotes: z.string().nullable(),
  fileName: z.string(),
  size: z.number(),
  sha256: z.string(),
  signed: z.boolean(),
  signatureAlgorithm: z.enum(FIRMWARE_KEY_ALGORITHMS).nullable(),
  /** The key that verified the signature. */
  keyId: z.number().nullable(),
  keyName: z.string().nullable(),
  state: z.enum(FIRMWARE_PACKAGE_STATES),
  /** Rollouts that use it, and how many of them are running or paused (a running one blocks deletion). */
  rolloutCount: z.number(),
  activeRolloutCount: z.number(),
  /** Devices that report this name and version now. */
  deviceCount: z.number(),
  ...rowAudit,
});
export type FirmwarePackageRecord = z.infer<typeof firmwarePackageRecord>;
export const firmwarePackageRef = z.object({
  id: z.number(),
  companyId: z.number(),
  deviceType: z.enum(DEVICE_TYPES),
  productId: z.number().nullable(),
  name: z.string(),
  version: z.string(),
  upgradeFrom: z.string().nullable(),
  state: z.enum(FIRMWARE_PACKAGE_STATES),
});
export type FirmwarePackageRef = z.infer<typeof firmwarePackageRef>;

/** The device's download: GET /firmware/device/package?token=… (no session: the token is the authority; HTTP Range supported). */
export const firmwareDeviceDownload = z.object({ token: z.string().trim().min(20).max(1024) });
/** The device's log upload (HTTP PUT of the file, `Content-Type: text/plain` or gzip): /firmware/device/log?token=…. */
export const FIRMWARE_DEVICE_LOG_PATH = '/firmware/device/log';
export const FIRMWARE_DEVICE_PACKAGE_PATH = '/firmware/device/package';

// ── Rollouts (/firmware/rollout) ──────────────────────────────────────────────────────

export const HHMM_INVALID = '时间须为 HH:mm';
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, HHMM_INVALID);
/**
 * A maintenance window in each station's own time zone: flashing only between start and end
 * (wrapping midnight when end < start), on the given weekdays (1 Monday … 7 Sunday; empty: every day).
 * Downloading may happen at any time.
 */
export const maintenanceWindow = z.object({
  days: z.array(z.number().int().min(1).max(7)).max(7).default([]),
  start: hhmm,
  end: hhmm,
}).refine((w) => w.start !== w.end, { message: '维护时段的开始与结束不能相同', path: ['end'] });
export type MaintenanceWindow = z.infer<typeof maintenanceWindow>;

/** Which devices a rollout targets: the package's device type (and product), narrowed by these; empty lists narrow nothing. */
export const firmwareTarget = z.object({
  packageId: ref,
  siteIds: refs,
  productIds: refs,
  /** Devices whose current version is one of these (an empty string: devices that report none). */
  versions: z.array(z.string().trim().max(32)).max(100).default([]),
  /** Explicit devices (within the rest); empty: all that match. */
  deviceIds: refs,
});
export type FirmwareTarget = z.input<typeof firmwareTarget>;

/** How the targets are split: a canary group of N devices, then groups of a size or a percentage of the rest. */
export const firmwareGrouping = z
  .object({
    canarySize: z.number().int().min(0, '金丝雀组设备数须为0-1000').max(1000, '金丝雀组设备数须为0-1000').default(1),
    groupSize: z.number().int().min(1).max(100_000).nullable().default(null),
    groupPercent: z.number().int().min(1).max(100).nullable().default(null),
  })
  .refine((g) => (g.groupSize === null) !== (g.groupPercent === null), { message: '分组须按设备数或百分比之一划分', path: ['groupSize'] });
export type FirmwareGrouping = z.input<typeof firmwareGrouping>;

const rolloutFields = {
  name: name64('升级任务名称'),
  target: firmwareTarget,
  grouping: firmwareGrouping,
  /** A group is followed by the next when this share of its devices succeeded (%). Default: the settings'. */
  successThreshold: percent('成功阈值').optional(),
  /** The rollout pauses when this share of a group's devices failed (%). Default: the settings'. */
  errorThreshold: percent('失败阈值').optional(),
  /** Needs a second user's approval before it can start (two-person rule). Default: the settings'. */
  requireApproval: z.boolean().optional(),
  /** No group starts before this instant; null: when started. */
  startAt: z.iso.datetime({ offset: true, error: '时间格式不正确' }).nullable().default(null),
  /** Flashing only inside these windows (station time); empty: any time. */
  windows: z.array(maintenanceWindow).max(14).default([]),
  /** Flash a PCS, BMS or EMS only when its station is in a safe state (decision 0047). */
  safeGate: z.boolean().default(true),
  remark,
};
export const firmwareRolloutAdd = z.object(rolloutFields);
export type FirmwareRolloutAdd = z.input<typeof firmwareRolloutAdd>;
export const firmwareRolloutEdit = z.object({ id: ref, ...rolloutFields });
export type FirmwareRolloutEdit = z.input<typeof firmwareRolloutEdit>;

/** Preview of a target: the devices it would take, and those it would skip with the reason. */
export const firmwareRolloutPreview = z.object({ target: firmwareTarget, grouping: firmwareGrouping.optional() });
export type FirmwareRolloutPreview = z.input<typeof firmwareRolloutPreview>;
export const FIRMWARE_SKIP_REASONS = ['alreadyCurrent', 'versionNotAllowed', 'newerVersion', 'disabled', 'busy'] as const;
export type FirmwareSkipReason = (typeof FIRMWARE_SKIP_REASONS)[number];
export const FIRMWARE_SKIP_REASON_LABELS: Record<FirmwareSkipReason, string> = {
  alreadyCurrent: '已是目标版本',
  versionNotAllowed: '当前版本不在可升级范围内',
  newerVersion: '当前版本高于目标版本',
  disabled: '设备已停用',
  busy: '设备有进行中的升级任务',
};
export const firmwarePreviewDevice = z.object({
  deviceId: z.number(),
  code: z.string(),
  name: z.string(),
  siteId: z.number(),
  siteName: z.string(),
  type: z.string(),
  productId: z.number(),
  productName: z.string(),
  firmwareName: z.string().nullable(),
  firmwareVersion: z.string().nullable(),
  online: z.boolean(),
  /** null: targeted; else why it is skipped. */
  skip: z.enum(FIRMWARE_SKIP_REASONS).nullable(),
  /** 1 = canary, 2…: the group it would fall in (null when skipped). */
  group: z.number().nullable(),
});
export type FirmwarePreviewDevice = z.infer<typeof firmwarePreviewDevice>;
export const firmwarePreviewResult = z.object({
  devices: z.array(firmwarePreviewDevice),
  targeted: z.number(),
  skipped: z.number(),
  /** Device counts of the groups it would make. */
  groups: z.array(z.number()),
});
export type FirmwarePreviewResult = z.infer<typeof firmwarePreviewResult>;

export const firmwareRolloutPage = pageRequest
  .extend({
    name: z.string().trim().max(64).optional(),
    packageId: id.optional(),
    companyId: id.optional(),
    siteId: id.optional(),
    state: z.enum(FIRMWARE_ROLLOUT_STATES).optional(),
  })
  .extend(sortRequest(['name', 'state', 'createdAt', 'startedAt']).shape);
export type FirmwareRolloutPage = z.input<typeof firmwareRolloutPage>;

/** Task counts by state. */
export const firmwareTaskCounts = z.object({
  total: z.number(),
  ...Object.fromEntries(FIRMWARE_TASK_STATES.map((s) => [s, z.number()])) as Record<FirmwareTaskState, z.ZodNumber>,
});
export type FirmwareTaskCounts = z.infer<typeof firmwareTaskCounts>;

export const firmwareGroupRecord = z.object({
  id: z.number(),
  /** 1 = canary. */
  no: z.number(),
  canary: z.boolean(),
  state: z.enum(FIRMWARE_GROUP_STATES),
  successThreshold: z.number(),
  errorThreshold: z.number(),
  startedAt: isoTime.nullable(),
  finishedAt: isoTime.nullable(),
  counts: firmwareTaskCounts,
});
export type FirmwareGroupRecord = z.infer<typeof firmwareGroupRecord>;

export const firmwareRolloutRecord = z.object({
  ...rowCompany,
  name: z.string(),
  packageId: z.number(),
  packageName: z.string(),
  packageVersion: z.string(),
  deviceType: z.enum(DEVICE_TYPES),
  state: z.enum(FIRMWARE_ROLLOUT_STATES),
  target: z.object({ packageId: z.number(), siteIds: z.array(z.number()), productIds: z.array(z.number()), versions: z.array(z.string()), deviceIds: z.array(z.number()) }),
  siteNames: z.array(z.string()),
  grouping: z.object({ canarySize: z.number(), groupSize: z.number().nullable(), groupPercent: z.number().nullable() }),
  successThreshold: z.number(),
  errorThreshold: z.number(),
  requireApproval: z.boolean(),
  approvedByName: z.string().nullable(),
  approvedAt: isoTime.nullable(),
  approvalNote: z.string().nullable(),
  startAt: isoTime.nullable(),
  windows: z.array(z.object({ days: z.array(z.number()), start: z.string(), end: z.string() })),
  safeGate: z.boolean(),
  startedAt: isoTime.nullable(),
  finishedAt: isoTime.nullable(),
  /** Why it paused (error threshold of group N, or a user). */
  pauseReason: z.string().nullable(),
  remark: z.string().nullable(),
  counts: firmwareTaskCounts,
  /** The actions the caller may take now (FIRMWARE_ROLLOUT_MACHINE, approval by another user). */
  actions: z.array(z.enum(FIRMWARE_ROLLOUT_ACTIONS)),
  ...rowAudit,
});
export type FirmwareRolloutRecord = z.infer<typeof firmwareRolloutRecord>;
export const firmwareRolloutDetail = firmwareRolloutRecord.extend({ groups: z.array(firmwareGroupRecord) });
export type FirmwareRolloutDetail = z.infer<typeof firmwareRolloutDetail>;

export const firmwareApproval = z.object({ id: ref, note: z.string().trim().max(200, '审批意见不能超过200个字符').optional().nullable().transform((v) => (v ? v : null)) });
export type FirmwareApproval = z.input<typeof firmwareApproval>;
/** Retry a rollout's failed devices (all of them, or these tasks). */
export const firmwareRetry = z.object({ id: ref, taskIds: refs });
export type FirmwareRetry = z.input<typeof firmwareRetry>;
export const firmwarePause = z.object({ id: ref, reason: z.string().trim().max(200).optional().nullable().transform((v) => (v ? v : null)) });

// ── Device tasks (/firmware/task) ─────────────────────────────────────────────────────

/** One step of a task's history: a state reached (or a wait), with its time and reason. */
export const firmwareTaskStep = z.object({
  at: isoTime,
  state: z.enum(FIRMWARE_TASK_STATES),
  /** Download progress (0–100) for downloading. */
  progress: z.number().nullable(),
  waitReason: z.enum(FIRMWARE_WAIT_REASONS).nullable(),
  reason: z.string().nullable(),
});
export type FirmwareTaskStep = z.infer<typeof firmwareTaskStep>;

export const firmwareTaskPage = pageRequest
  .extend({
    rolloutId: id.optional(),
    groupId: id.optional(),
    siteId: id.optional(),
    deviceCode: z.string().trim().max(64).optional(),
    state: z.enum(FIRMWARE_TASK_STATES).optional(),
    /** Only the failed ones (any failed state). */
    failed: z.boolean().optional(),
  })
  .extend(sortRequest(['deviceCode', 'state', 'updatedAt']).shape);
export type FirmwareTaskPage = z.input<typeof firmwareTaskPage>;

export const firmwareTaskRecord = z.object({
  id: z.number(),
  rolloutId: z.number(),
  rolloutName: z.string(),
  groupId: z.number(),
  groupNo: z.number(),
  deviceId: z.number(),
  deviceCode: z.string(),
  deviceName: z.string(),
  siteId: z.number(),
  siteName: z.string(),
  /** Version before the task; the version it reported at the end. */
  fromVersion: z.string().nullable(),
  toVersion: z.string(),
  reportedVersion: z.string().nullable(),
  state: z.enum(FIRMWARE_TASK_STATES),
  progress: z.number().nullable(),
  waitReason: z.enum(FIRMWARE_WAIT_REASONS).nullable(),
  reason: z.string().nullable(),
  attempts: z.number(),
  issuedAt: isoTime.nullable(),
  finishedAt: isoTime.nullable(),
  updatedAt: isoTime,
});
export type FirmwareTaskRecord = z.infer<typeof firmwareTaskRecord>;
export const firmwareTaskDetail = firmwareTaskRecord.extend({ steps: z.array(firmwareTaskStep) });
export type FirmwareTaskDetail = z.infer<typeof firmwareTaskDetail>;

// ── Log capture (/firmware/log) ───────────────────────────────────────────────────────

export const LOG_RANGE_INVALID = '日志时间范围的开始须早于结束';
export const firmwareLogAdd = z
  .object({
    companyId: ref,
    name: name64('抓取任务名称'),
    deviceIds: z.array(ref).min(1, '至少选择一台设备').max(500, '一次最多抓取500台设备'),
    from: z.iso.datetime({ offset: true, error: '时间格式不正确' }),
    to: z.iso.datetime({ offset: true, error: '时间格式不正确' }),
    /** Minutes before a device's upload is "upload timeout"; default: the settings'. */
    timeoutMinutes: minutesIn('上传超时', 1440).optional(),
    remark,
  })
  .refine((v) => Date.parse(v.from) < Date.parse(v.to), { message: LOG_RANGE_INVALID, path: ['to'] });
export type FirmwareLogAdd = z.input<typeof firmwareLogAdd>;

export const firmwareLogPage = pageRequest
  .extend({ name: z.string().trim().max(64).optional(), companyId: id.optional(), siteId: id.optional(), state: z.enum(FIRMWARE_CAPTURE_STATES).optional() })
  .extend(sortRequest(['name', 'createdAt']).shape);
export type FirmwareLogPage = z.input<typeof firmwareLogPage>;

export const firmwareLogDevice = z.object({
  id: z.number(),
  deviceId: z.number(),
  deviceCode: z.string(),
  deviceName: z.string(),
  siteId: z.number(),
  siteName: z.string(),
  state: z.enum(FIRMWARE_LOG_STATES),
  bytes: z.number().nullable(),
  reason: z.string().nullable(),
  issuedAt: isoTime.nullable(),
  finishedAt: isoTime.nullable(),
  /** Whether a file is there to download. */
  hasFile: z.boolean(),
});
export type FirmwareLogDevice = z.infer<typeof firmwareLogDevice>;
export const firmwareLogRecord = z.object({
  ...rowCompany,
  name: z.string(),
  from: isoTime,
  to: isoTime,
  timeoutMinutes: z.number(),
  state: z.enum(FIRMWARE_CAPTURE_STATES),
  remark: z.string().nullable(),
  counts: z.object({ total: z.number(), ...Object.fromEntries(FIRMWARE_LOG_STATES.map((s) => [s, z.number()])) as Record<FirmwareLogState, z.ZodNumber> }),
  finishedAt: isoTime.nullable(),
  ...rowAudit,
});
export type FirmwareLogRecord = z.infer<typeof firmwareLogRecord>;
export const firmwareLogDetail = firmwareLogRecord.extend({ devices: z.array(firmwareLogDevice) });
export type FirmwareLogDetail = z.infer<typeof firmwareLogDetail>;

// ── Compliance (/firmware/compliance) ─────────────────────────────────────────────────

export const firmwareComplianceQuery = z.object({
  deviceType: firmwareDeviceType.optional(),
  productId: id.optional(),
  siteIds: refs,
  companyId: id.optional(),
  /** How many lagging devices to list per row (the counts cover all). */
  lagLimit: z.number().int().min(0).max(500).default(50),
});
export type FirmwareComplianceQuery = z.input<typeof firmwareComplianceQuery>;
export const firmwareComplianceDevice = z.object({
  deviceId: z.number(),
  code: z.string(),
  name: z.string(),
  siteId: z.number(),
  siteName: z.string(),
  firmwareVersion: z.string().nullable(),
});
/**
 * One device type / product / firmware name: the devices by version, the latest released package
 * (null: none uploaded) and the devices behind it; drift: devices whose version after a
 * replacement differs from what the replaced one ran.
 */
export const firmwareComplianceRow = z.object({
  deviceType: z.enum(DEVICE_TYPES),
  productId: z.number(),
  productName: z.string(),
  firmwareName: z.string().nullable(),
  total: z.number(),
  versions: z.array(z.object({ version: z.string().nullable(), count: z.number(), latest: z.boolean() })),
  latestVersion: z.string().nullable(),
  latestPackageId: z.number().nullable(),
  current: z.number(),
  behind: z.number(),
  /** Versions that are not semver or not reported. */
  unknown: z.number(),
  lagging: z.array(firmwareComplianceDevice),
  drift: z.array(firmwareComplianceDevice.extend({ replacedAt: isoTime, previousVersion: z.string().nullable(), oldCode: z.string() })),
});
export type FirmwareComplianceRow = z.infer<typeof firmwareComplianceRow>;
export const firmwareComplianceResult = z.object({
  rows: z.array(firmwareComplianceRow),
  totals: z.object({ devices: z.number(), current: z.number(), behind: z.number(), unknown: z.number(), drift: z.number() }),
});
export type FirmwareComplianceResult = z.infer<typeof firmwareComplianceResult>;

// ── Domain events (hooks may attach to them; decision 0041) ───────────────────────────

const at = z.string().describe('时间');
const rolloutEventPayload = z.object({
  rolloutId: z.number().int().describe('升级任务ID'),
  name: z.string().describe('升级任务名称'),
  companyId: z.number().int().describe('公司ID'),
  packageId: z.number().int().describe('升级包ID'),
  version: z.string().describe('目标版本'),
  siteIds: z.array(z.number().int()).describe('站点ID'),
  from: z.string().nullable().describe('原状态'),
  to: z.string().describe('新状态'),
  userId: z.number().int().nullable().describe('操作人ID'),
  reason: z.string().nullable().describe('原因'),
  at: at,
});
/** Firmware's events, spread into HOOK_EVENT_PAYLOADS / HOOK_EVENT_LABELS (hooks.ts). */
export const FIRMWARE_EVENT_PAYLOADS = {
  'firmware.packageAdded': z.object({
    packageId: z.number().int().describe('升级包ID'),
    companyId: z.number().int().describe('公司ID'),
    deviceType: z.string().describe('设备类型'),
    productId: z.number().int().nullable().describe('产品ID'),
    name: z.string().describe('固件名称'),
    version: z.string().describe('版本'),
    sha256: z.string().describe('SHA-256'),
    signed: z.boolean().describe('是否签名'),
    userId: z.number().int().describe('操作人ID'),
  }),
  'firmware.rolloutStarted': rolloutEventPayload,
  'firmware.rolloutPaused': rolloutEventPayload,
  'firmware.rolloutFinished': rolloutEventPayload,
  'firmware.taskFinished': z.object({
    taskId: z.number().int().describe('设备升级任务ID'),
    rolloutId: z.number().int().describe('升级任务ID'),
    deviceId: z.number().int().describe('设备ID'),
    code: z.string().describe('设备编码'),
    siteId: z.number().int().describe('站点ID'),
    fromVersion: z.string().nullable().describe('原版本'),
    toVersion: z.string().describe('目标版本'),
    to: z.string().describe('结束状态'),
    reason: z.string().nullable().describe('原因'),
    at: at,
  }),
} as const;
export const FIRMWARE_EVENT_LABELS: Record<keyof typeof FIRMWARE_EVENT_PAYLOADS, string> = {
  'firmware.packageAdded': '升级包上传',
  'firmware.rolloutStarted': '固件升级开始',
  'firmware.rolloutPaused': '固件升级暂停',
  'firmware.rolloutFinished': '固件升级结束',
  'firmware.taskFinished': '设备升级结束',
};
export const FIRMWARE_EVENTS = {
  packageAdded: 'firmware.packageAdded',
  rolloutStarted: 'firmware.rolloutStarted',
  rolloutPaused: 'firmware.rolloutPaused',
  rolloutFinished: 'firmware.rolloutFinished',
  taskFinished: 'firmware.taskFinished',
} as const;

// ── Endpoints ─────────────────────────────────────────────────────────────────────────

export const firmwareSettingEndpoints = {
  one: endpoint({ method: 'POST', path: '/firmware/setting/query/one', response: firmwareSettingRecord }),
  edit: endpoint({ method: 'POST', path: '/firmware/setting/edit', body: firmwareSettingEdit, response: done }),
};

export const firmwareKeyEndpoints = {
  page: endpoint({ method: 'POST', path: '/firmware/key/query/page', body: firmwareKeyPage, response: pageOf(firmwareKeyRecord) }),
  one: endpoint({ method: 'POST', path: '/firmware/key/query/one', body: idBody, response: firmwareKeyRecord }),
  add: endpoint({ method: 'POST', path: '/firmware/key/add', body: firmwareKeyAdd, response: created }),
  edit: endpoint({ method: 'POST', path: '/firmware/key/edit', body: firmwareKeyEdit, response: done }),
  delete: endpoint({ method: 'GET', path: '/firmware/key/delete', query: idQuery, response: done }),
};

export const firmwarePackageEndpoints = {
  page: endpoint({ method: 'POST', path: '/firmware/package/query/page', body: firmwarePackagePage, response: pageOf(firmwarePackageRecord) }),
  list: endpoint({ method: 'POST', path: '/firmware/package/query/list', body: firmwarePackageFilter, response: z.array(firmwarePackageRef) }),
  one: endpoint({ method: 'POST', path: '/firmware/package/query/one', body: idBody, response: firmwarePackageRecord }),
  edit: endpoint({ method: 'POST', path: '/firmware/package/edit', body: firmwarePackageEdit, response: done }),
  delete: endpoint({ method: 'GET', path: '/firmware/package/delete', query: idQuery, response: done }),
  withdraw: endpoint({ method: 'POST', path: '/firmware/package/withdraw', body: idBody, response: done }),
  release: endpoint({ method: 'POST', path: '/firmware/package/release', body: idBody, response: done }),
  /** The console's download of the file. */
  download: endpoint({ method: 'GET', path: '/firmware/package/download', query: idQuery, response: FILE }),
  uploadStart: endpoint({ method: 'POST', path: '/firmware/package/upload/start', body: firmwareUploadStart, response: firmwareUploadStatus }),
  uploadChunk: endpoint({ method: 'POST', path: '/firmware/package/upload/chunk', query: firmwareUploadChunk, multipart: true, response: firmwareUploadStatus }),
  uploadStatus: endpoint({ method: 'POST', path: '/firmware/package/upload/query/one', body: firmwareUploadRef, response: firmwareUploadStatus }),
  uploadFinish: endpoint({ method: 'POST', path: '/firmware/package/upload/finish', body: firmwareUploadRef, response: created }),
  uploadAbort: endpoint({ method: 'POST', path: '/firmware/package/upload/abort', body: firmwareUploadRef, response: done }),
};

/** What devices call, authorised by a token (not a session). */
export const firmwareDeviceEndpoints = {
  package: endpoint({ method: 'GET', path: FIRMWARE_DEVICE_PACKAGE_PATH, query: firmwareDeviceDownload, response: FILE }),
};

export const firmwareRolloutEndpoints = {
  page: endpoint({ method: 'POST', path: '/firmware/rollout/query/page', body: firmwareRolloutPage, response: pageOf(firmwareRolloutRecord) }),
  one: endpoint({ method: 'POST', path: '/firmware/rollout/query/one', body: idBody, response: firmwareRolloutDetail }),
  preview: endpoint({ method: 'POST', path: '/firmware/rollout/preview', body: firmwareRolloutPreview, response: firmwarePreviewResult }),
  add: endpoint({ method: 'POST', path: '/firmware/rollout/add', body: firmwareRolloutAdd, response: created }),
  edit: endpoint({ method: 'POST', path: '/firmware/rollout/edit', body: firmwareRolloutEdit, response: done }),
  delete: endpoint({ method: 'GET', path: '/firmware/rollout/delete', query: idQuery, response: done }),
  approve: endpoint({ method: 'POST', path: '/firmware/rollout/approve', body: firmwareApproval, response: done }),
  reject: endpoint({ method: 'POST', path: '/firmware/rollout/reject', body: firmwareApproval, response: done }),
  start: endpoint({ method: 'POST', path: '/firmware/rollout/start', body: idBody, response: done }),
  pause: endpoint({ method: 'POST', path: '/firmware/rollout/pause', body: firmwarePause, response: done }),
  resume: endpoint({ method: 'POST', path: '/firmware/rollout/resume', body: idBody, response: done }),
  stop: endpoint({ method: 'POST', path: '/firmware/rollout/stop', body: idBody, response: done }),
  retry: endpoint({ method: 'POST', path: '/firmware/rollout/retry', body: firmwareRetry, response: done }),
};

export const firmwareTaskEndpoints = {
  page: endpoint({ method: 'POST', path: '/firmware/task/query/page', body: firmwareTaskPage, response: pageOf(firmwareTaskRecord) }),
  one: endpoint({ method: 'POST', path: '/firmware/task/query/one', body: idBody, response: firmwareTaskDetail }),
};

export const firmwareLogEndpoints = {
  page: endpoint({ method: 'POST', path: '/firmware/log/query/page', body: firmwareLogPage, response: pageOf(firmwareLogRecord) }),
  one: endpoint({ method: 'POST', path: '/firmware/log/query/one', body: idBody, response: firmwareLogDetail }),
  add: endpoint({ method: 'POST', path: '/firmware/log/add', body: firmwareLogAdd, response: created }),
  delete: endpoint({ method: 'GET', path: '/firmware/log/delete', query: idQuery, response: done }),
  /** One device's uploaded log file (`id`: the capture's device row). */
  download: endpoint({ method: 'GET', path: '/firmware/log/download', query: idQuery, response: FILE }),
};

export const firmwareComplianceEndpoints = {
  query: endpoint({ method: 'POST', path: '/firmware/compliance/query', body: firmwareComplianceQuery, response: firmwareComplianceResult }),
};

/** Every firmware call (the device's log PUT, FIRMWARE_DEVICE_LOG_PATH, is served outside the endpoint table: the method is PUT). */
export const firmwareEndpoints = {
  ...prefixed('setting', firmwareSettingEndpoints),
  ...prefixed('key', firmwareKeyEndpoints),
  ...prefixed('package', firmwarePackageEndpoints),
  ...prefixed('device', firmwareDeviceEndpoints),
  ...prefixed('rollout', firmwareRolloutEndpoints),
  ...prefixed('task', firmwareTaskEndpoints),
  ...prefixed('log', firmwareLogEndpoints),
  ...prefixed('compliance', firmwareComplianceEndpoints),
};

function prefixed<P extends string, T extends Record<string, unknown>>(prefix: P, o: T): { [K in keyof T & string as `${P}.${K}`]: T[K] } {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [`${prefix}.${k}`, v])) as { [K in keyof T & string as `${P}.${K}`]: T[K] };
}
