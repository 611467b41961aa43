import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import {
  REPORT_EMBED_ADMIN_ONLY, REPORT_EMBED_DASHBOARD_UNKNOWN, REPORT_EMBED_NOT_CONFIGURED, REPORT_EMBED_SECRET_REQUIRED, REPORT_EMBED_TTL_S,
  type ReportEmbedEdit, type ReportEmbedRecord, type ReportEmbedTool, type ReportEmbedUrl,
} from '@ess/contract/report';
import { reportEmbed } from '../../db/schema/report.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/errors.ts';
import { siteIdsInScope } from '../../platform/http/scope.ts';
import { secretBox } from '../../platform/secrets.ts';
import { isInstallationAdmin } from '../hooks/index.ts';

/**
 * The external report tool (issue 25 stage 2; decision 0054): an administrator of the
 * installation names a Metabase, Grafana or JimuReport server, its embedding secret (sealed with
 * the product's secret box, never answered) and the dashboards offered. A viewer gets a signed
 * URL that lives REPORT_EMBED_TTL_S: an HS256 JWT in Metabase's documented embedding payload
 * `{ resource: { dashboard }, params: { <siteParam>: [station ids] }, exp }`, whose params are
 * locked to the viewer's station scope at the time of asking. Never a shared public link.
 */
export const REPORT_EMBED_SECRET = 'report.embed.secret';
const ROW = 1;

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** An HS256 JSON Web Token (RFC 7519) of the payload. */
export function signHs256(payload: Record<string, unknown>, secret: string): string {
  const head = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(payload)}`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
}

/** Where each tool opens a signed dashboard (Metabase's static embedding; Grafana's JWT URL login; JimuReport's token). */
function embedUrlOf(tool: ReportEmbedTool, siteUrl: string, dashboard: number, token: string): string {
  if (tool === 'metabase') return `${siteUrl}/embed/dashboard/${token}#bordered=true&titled=true`;
  if (tool === 'grafana') return `${siteUrl}/d/${dashboard}?kiosk&auth_token=${token}`;
  return `${siteUrl}/jmreport/view/${dashboard}?token=${token}`;
}

export async function embedOne(ctx: AppContext, user: AuthUser): Promise<ReportEmbedRecord> {
  const [r] = await ctx.db.select().from(reportEmbed).where(eq(reportEmbed.id, ROW));
  const editable = await isInstallationAdmin(ctx.db, user);
  if (!r) return { enabled: false, tool: null, siteUrl: null, hasSecret: false, siteParam: 'site_id', dashboards: [], editable, updatedAt: null };
  return {
    enabled: r.enabled, tool: r.tool as ReportEmbedTool, siteUrl: r.siteUrl, hasSecret: true, siteParam: r.siteParam, dashboards: r.dashboards, editable,
    updatedAt: r.updatedAt.toISOString(),
  };
}

export async function embedEdit(ctx: AppContext, user: AuthUser, b: ReportEmbedEdit): Promise<boolean> {
  if (!(await isInstallationAdmin(ctx.db, user))) throw new AppError('FORBIDDEN', REPORT_EMBED_ADMIN_ONLY);
  const [old] = await ctx.db.select({ secretEnc: reportEmbed.secretEnc }).from(reportEmbed).where(eq(reportEmbed.id, ROW));
  const secretEnc = b.secret ? secretBox(ctx.config.secretKey).seal(b.secret, REPORT_EMBED_SECRET) : old?.secretEnc;
  if (!secretEnc) throw new AppError('INVALID_PARAM', REPORT_EMBED_SECRET_REQUIRED);
  const values = { enabled: b.enabled, tool: b.tool, siteUrl: b.siteUrl, secretEnc, siteParam: b.siteParam, dashboards: b.dashboards, updatedBy: user.id, updatedAt: new Date() };
  await ctx.db.insert(reportEmbed).values({ id: ROW, ...values }).onConflictDoUpdate({ target: reportEmbed.id, set: values });
  return true;
}

/** A signed URL of one configured dashboard, its params locked to the caller's stations. */
export async function embedUrl(ctx: AppContext, user: AuthUser, dashboard: number, now = Date.now()): Promise<ReportEmbedUrl> {
  const [r] = await ctx.db.select().from(reportEmbed).where(eq(reportEmbed.id, ROW));
  if (!r || !r.enabled) throw new AppError('RULE_VIOLATION', REPORT_EMBED_NOT_CONFIGURED);
  if (!r.dashboards.some((d) => d.id === dashboard)) throw new AppError('NOT_FOUND', REPORT_EMBED_DASHBOARD_UNKNOWN);
  const siteIds = (await siteIdsInScope(ctx.db, user)).map((s) => s.id).sort((a, b) => a - b);
  const exp = Math.floor(now / 1000) + REPORT_EMBED_TTL_S;
  const secret = secretBox(ctx.config.secretKey).open(r.secretEnc, REPORT_EMBED_SECRET);
  const token = signHs256({ resource: { dashboard }, params: { [r.siteParam]: siteIds }, exp }, secret);
  return { url: embedUrlOf(r.tool as ReportEmbedTool, r.siteUrl, dashboard, token), expiresAt: new Date(exp * 1000).toISOString(), siteIds };
}
