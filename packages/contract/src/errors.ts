/**
 * The one error-code catalogue. "00000" is success; "A…" codes are the caller's fault,
 * "B…" the system's, "C…" a third party's. Each code carries its HTTP status and default tipMsg
 * (Simplified Chinese source text, translated by the client's language pack).
 */
export const SUCCESS_CODE = '00000';

export const ERRORS = {
  UNAUTHENTICATED: { code: 'A0100', status: 401, tip: '未登录或登录已过期' },
  BAD_CREDENTIALS: { code: 'A0101', status: 406, tip: '用户名或密码错误' },
  ACCOUNT_LOCKED: { code: 'A0102', status: 406, tip: '登录失败次数过多，账号已临时锁定，请稍后再试' },
  ACCOUNT_DISABLED: { code: 'A0103', status: 406, tip: '账号已停用' },
  CAPTCHA_INVALID: { code: 'A0104', status: 406, tip: '验证码错误或已过期' },
  TOO_MANY_REQUESTS: { code: 'A0105', status: 429, tip: '请求过于频繁，请稍后再试' },
  SECONDARY_PASSWORD: { code: 'A0106', status: 406, tip: '二级密码错误' },
  FORBIDDEN: { code: 'A0300', status: 403, tip: '没有访问权限' },
  OUT_OF_SCOPE: { code: 'A0301', status: 403, tip: '无权访问该数据' },
  INVALID_PARAM: { code: 'A0400', status: 400, tip: '参数错误' },
  INVALID_JSON: { code: 'A0401', status: 400, tip: '请求体不是有效的 JSON' },
  PAYLOAD_TOO_LARGE: { code: 'A0402', status: 413, tip: '请求内容过大' },
  UNSUPPORTED_MEDIA: { code: 'A0403', status: 415, tip: '不支持的请求内容类型' },
  ROUTE_NOT_FOUND: { code: 'A0404', status: 404, tip: '接口不存在' },
  METHOD_NOT_ALLOWED: { code: 'A0405', status: 405, tip: '请求方法不支持' },
  NOT_FOUND: { code: 'A0410', status: 404, tip: '数据不存在' },
  RULE_VIOLATION: { code: 'A0406', status: 406, tip: '操作不符合业务规则' },
  HEADERS_TOO_LARGE: { code: 'A0407', status: 431, tip: '请求头或地址过长' },
  DUPLICATE: { code: 'A0409', status: 406, tip: '数据已存在' },
  FILE_TYPE: { code: 'A0420', status: 406, tip: '文件类型不支持' },
  FILE_TOO_LARGE: { code: 'A0421', status: 413, tip: '文件过大' },
  SCRIPT_ERROR: { code: 'A0430', status: 406, tip: '脚本错误，请检查修改' },
  TASK_BUSY: { code: 'A0440', status: 406, tip: '任务被占用，请稍后重试' },
  SYSTEM_ERROR: { code: 'B0001', status: 500, tip: '服务器繁忙，请稍后再试' },
  UNAVAILABLE: { code: 'B0002', status: 503, tip: '服务暂不可用，请稍后再试' },
  THIRD_PARTY: { code: 'C0001', status: 502, tip: '第三方服务调用失败' },
  DEVICE_TIMEOUT: { code: 'C0002', status: 504, tip: '设备未在规定时间内应答' },
} as const satisfies Record<string, { code: string; status: number; tip: string }>;

export type ErrorName = keyof typeof ERRORS;
export type ErrorCode = (typeof ERRORS)[ErrorName]['code'] | typeof SUCCESS_CODE;

/** The response envelope of every JSON call (product-spec §7–§8). */
export interface Envelope<T = unknown> {
  errorCode: string;
  tipMsg: string;
  errorMsg: string;
  data: T;
}
