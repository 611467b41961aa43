import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FrameLocator, Page } from 'playwright-core';
import type { ConsoleApi } from './api.ts';

/**
 * A stand-in for Metabase's static embedding endpoint, for the e2e runs: GET
 * /embed/dashboard/<jwt> verifies the HS256 signature with the secret it is given and the expiry,
 * then answers a small page naming the dashboard and the locked station ids (401 otherwise).
 */
export async function embedPeer(secret: string) {
  const seen: { dashboard: number; params: Record<string, unknown>; exp: number }[] = [];
  const server = createServer((req, res) => {
    const token = /^\/embed\/dashboard\/([^/?#]+)/.exec(req.url ?? '')?.[1] ?? '';
    const [h, p, s] = token.split('.');
    const expected = h && p ? createHmac('sha256', secret).update(`${h}.${p}`).digest() : Buffer.alloc(0);
    const given = Buffer.from(s ?? '', 'base64url');
    const payload = p ? (JSON.parse(Buffer.from(p, 'base64url').toString()) as { resource?: { dashboard?: number }; params?: Record<string, unknown>; exp?: number }) : {};
    const ok = given.length === expected.length && expected.length > 0 && timingSafeEqual(given, expected) && (payload.exp ?? 0) > Date.now() / 1000;
    res.writeHead(ok ? 200 : 401, { 'content-type': 'text/html; charset=utf-8' });
    if (!ok) return void res.end('<!doctype html><html lang="en"><head><title>Refused</title></head><body><main><h1>Refused</h1></main></body></html>');
    seen.push({ dashboard: payload.resource?.dashboard ?? 0, params: payload.params ?? {}, exp: payload.exp ?? 0 });
    const sites = JSON.stringify(payload.params ?? {});
    res.end(`<!doctype html><html lang="en"><head><title>Dashboard</title></head><body style="font-family:sans-serif;margin:24px">
<main><h1>Dashboard ${payload.resource?.dashboard ?? ''}</h1><p data-testid="locked">Locked parameters: ${sites.replace(/</g, '&lt;')}</p></main></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * Points the report centre's external tool at the stand-in (Metabase, one dashboard "Fleet
 * overview") and opens that dashboard from the external-reports tab of /report/jimu: the page's
 * frame then holds what the stand-in answered.
 */
export async function openEmbeddedDashboard(page: Page, api: ConsoleApi, peerUrl: string, secret: string): Promise<FrameLocator> {
  await api.post('/report/embed/edit', { enabled: true, tool: 'metabase', siteUrl: peerUrl, secret, dashboards: [{ id: 7, name: 'Fleet overview' }] });
  await page.getByRole('tab', { name: '外部报表' }).click();
  await page.getByTestId('report-embed-settings').waitFor();
  await page.getByRole('combobox', { name: '报表', exact: true }).click({ force: true });
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: 'Fleet overview' }).first().click();
  await page.getByTestId('report-embed-open').click();
  return page.frameLocator('iframe[title="外部报表"]');
}
