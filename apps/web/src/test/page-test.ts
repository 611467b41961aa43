import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { useI18nStore } from '../platform/i18n/translate.ts';
import type { Call } from './http.ts';

/** A recorded call's path under /api/manager. */
export const callPath = (c: Call) => new URL(c.url, 'http://console').pathname.slice('/api/manager'.length);
/** A recorded call's JSON body ({} when it has none). */
export const callBody = (c: Call) => JSON.parse(typeof c.init.body === 'string' ? c.init.body : '{}') as Record<string, unknown>;

/**
 * The frame of a page test file: each test starts with nothing stored, in Chinese without a
 * language pack, and its rendered tree is removed after it; `testTimeout` is a hang guard for
 * pages that render antd tables (several seconds in jsdom under load).
 */
export function pageTests(testTimeout = 60_000): void {
  vi.setConfig({ testTimeout });
  afterEach(cleanup);
  beforeEach(() => {
    localStorage.clear();
    useI18nStore.setState({ locale: 'zh-CN', pack: new Map() });
  });
}
