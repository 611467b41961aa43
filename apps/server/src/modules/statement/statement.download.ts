import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyReply } from 'fastify';
import { PRICE_PERIOD_LABELS } from '@ess/contract';
import {
  SETTLEMENT_CATEGORY_LABELS, STATEMENT_ACTION_LABELS, STATEMENT_QUALITY_LABELS, STATEMENT_STATE_LABELS,
  type StatementFormat, type StatementLine, type StatementLogRecord, type StatementRecord,
} from '@ess/contract/statement';
import { sendFile, xlsxBuffer, type ExportLanguage, type XlsxColumn } from '../../platform/xlsx/xlsx.ts';

/**
 * The statement as a document (issue 18 item 7): xlsx (the lines, then the totals, shares,
 * parties and period below them) and PDF (header with both parties, the station and period, the
 * lines by register with their quality flags, totals and shares, the journal, a signatures area),
 * both in the caller's language.
 */

export interface StatementDocument {
  record: StatementRecord;
  lines: StatementLine[];
  journal: StatementLogRecord[];
  contact: string | null;
  phone: string | null;
}

// Source texts (the language packs translate them).
export const T = {
  title: '储能结算单',
  fileName: '结算单-$1-$2',
  code: '结算单号',
  station: '站点',
  company: '公司',
  month: '结算月份',
  period: '结算周期',
  currency: '币种',
  state: '状态',
  investor: '投资方',
  powerUser: '电力用户',
  ratio: '投资方分成比例',
  contact: '对账联系人',
  phone: '对账电话',
  category: '结算项目',
  register: '时段',
  meter: '电表',
  dates: '日期',
  energy: '电量',
  price: '单价',
  amount: '金额',
  quality: '数据质量',
  storageRevenue: '储能收益',
  pvRevenue: '光伏收益',
  pileRevenue: '充电桩收益',
  totalRevenue: '总收益',
  investorAmount: '投资方分成',
  powerUserAmount: '电力用户分成',
  journal: '流转记录',
  signatures: '签字确认',
  signInvestor: '投资方（签章）',
  signPowerUser: '电力用户（签章）',
  date: '日期',
  total: '合计',
  stationLevel: '站点合计',
} as const;

const dates = (l: StatementLine) => (l.fromDate === l.toDate ? l.fromDate : `${l.fromDate} ~ ${l.toDate}`);
const qualityText = (l: StatementLine, lang: ExportLanguage) => l.quality.map((q) => lang.t(STATEMENT_QUALITY_LABELS[q])).join(', ');

/** One row of the xlsx: a line, or a label and a value below the lines. */
interface SheetRow {
  category: string;
  register?: string;
  meter?: string;
  dates?: string;
  energy?: number | string;
  price?: number | string;
  amount?: number | string;
  quality?: string;
}

const num = (s: string) => Number(s);

export function xlsxRows(doc: StatementDocument, lang: ExportLanguage): SheetRow[] {
  const r = doc.record;
  const rows: SheetRow[] = doc.lines.map((l) => ({
    category: lang.t(SETTLEMENT_CATEGORY_LABELS[l.category]),
    register: l.period ? lang.t(PRICE_PERIOD_LABELS[l.period]) : '',
    meter: l.meterName ? lang.name(l.meterName) : lang.t(T.stationLevel),
    dates: dates(l),
    energy: num(l.energy),
    price: num(l.price),
    amount: num(l.amount),
    quality: qualityText(l, lang),
  }));
  const kv = (label: string, value: string | number, asAmount = false): SheetRow =>
    asAmount ? { category: lang.t(label), amount: typeof value === 'string' ? num(value) : value } : { category: lang.t(label), dates: String(value) };
  rows.push(
    { category: '' },
    kv(T.storageRevenue, r.storageRevenue, true),
    kv(T.pvRevenue, r.pvRevenue, true),
    kv(T.pileRevenue, r.pileRevenue, true),
    kv(T.totalRevenue, r.totalRevenue, true),
    kv(T.investorAmount, r.investorAmount, true),
    kv(T.powerUserAmount, r.powerUserAmount, true),
    { category: '' },
    kv(T.code, r.code),
    kv(T.station, lang.name(r.siteName)),
    kv(T.month, r.month),
    kv(T.period, `${r.periodStart} ~ ${r.periodEnd}`),
    kv(T.currency, r.currency),
    kv(T.state, lang.t(STATEMENT_STATE_LABELS[r.state])),
    kv(T.investor, r.investorName),
    kv(T.powerUser, r.powerUserName),
    kv(T.ratio, `${r.investorShareRatio}%`),
    kv(T.contact, doc.contact ?? ''),
    kv(T.phone, doc.phone ?? ''),
  );
  return rows;
}

const columns: XlsxColumn<SheetRow>[] = [
  { header: T.category, width: 18, value: (r) => r.category },
  { header: T.register, width: 8, value: (r) => r.register },
  { header: T.meter, width: 18, value: (r) => r.meter },
  { header: T.dates, width: 26, value: (r) => r.dates },
  { header: T.energy, unit: 'kWh', width: 14, numFmt: '#,##0.000', value: (r) => r.energy },
  { header: T.price, width: 10, numFmt: '0.0000', value: (r) => r.price },
  { header: T.amount, width: 14, numFmt: '#,##0.00', value: (r) => r.amount },
  { header: T.quality, width: 18, value: (r) => r.quality },
];

export function statementXlsx(doc: StatementDocument, lang: ExportLanguage): Promise<Buffer> {
  return xlsxBuffer({ fileName: T.fileName, fileArgs: [doc.record.siteName, doc.record.month], sheet: T.title, columns }, xlsxRows(doc, lang), lang);
}

// ── PDF ───────────────────────────────────────────────────────────────────────────────

type PdfDoc = InstanceType<typeof import('pdfkit')>;
let pdfkit: (new (o?: object) => PdfDoc) | null = null;
/** pdfkit loads its font metrics on first use: loaded with the first PDF, not with the server. */
const PDFDocument = () => (pdfkit ??= createRequire(import.meta.url)('pdfkit') as new (o?: object) => PdfDoc);

/** Noto Sans CJK (Debian fonts-noto-cjk) names its faces in the collection by region. */
const CJK_FACE: Record<string, string> = { 'zh-CN': 'NotoSansCJKsc-Regular', 'zh-TW': 'NotoSansCJKtc-Regular', 'ja-JP': 'NotoSansCJKjp-Regular', 'ko-KR': 'NotoSansCJKkr-Regular' };
const CJK_FILES = [process.env.STATEMENT_PDF_CJK_FONT, '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc', '/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc'];
const LATIN_FILES = [process.env.STATEMENT_PDF_FONT, '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'];

/** The font for a language: a CJK face for CJK languages, else a Unicode sans (or the CJK one, which has Latin too); null: the built-in Helvetica. */
export function pdfFont(locale: string): { file: string; face?: string } | null {
  const cjk = CJK_FILES.find((f): f is string => !!f && existsSync(f));
  const latin = LATIN_FILES.find((f): f is string => !!f && existsSync(f));
  if (CJK_FACE[locale] || locale.startsWith('zh')) return cjk ? { file: cjk, face: CJK_FACE[locale] ?? CJK_FACE['zh-CN'] } : null;
  if (latin) return { file: latin };
  return cjk ? { file: cjk, face: CJK_FACE['zh-CN'] } : null;
}

/** A PDF document written in the language's font, and its bytes once ended. */
export function openPdf(locale: string, options: { title: string; bufferPages?: boolean }): { pdf: PdfDoc; done: Promise<Buffer> } {
  const font = pdfFont(locale);
  // Without a font of the language's script the document cannot be written in it; the source
  // language needs CJK glyphs, so such a server writes it with the built-in font's Latin only.
  const pdf = new (PDFDocument())({ size: 'A4', margin: 40, bufferPages: options.bufferPages ?? false, info: { Title: options.title } });
  const chunks: Buffer[] = [];
  pdf.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  if (font) {
    if (font.face) pdf.registerFont('body', font.file, font.face);
    else pdf.registerFont('body', font.file);
    pdf.font('body');
  }
  return { pdf, done };
}

export function statementPdf(doc: StatementDocument, lang: ExportLanguage): Promise<Buffer> {
  const { pdf, done } = openPdf(lang.locale, { title: `${lang.t(T.title)} ${doc.record.code}` });
  const r = doc.record;
  const t = (s: string) => lang.t(s);
  const left = 40;
  const width = pdf.page.width - 80;

  pdf.fontSize(18).text(t(T.title), { align: 'center' });
  pdf.moveDown(0.5);
  pdf.fontSize(10);
  const pair = (label: string, value: string) => pdf.text(`${t(label)}: ${value}`);
  pair(T.code, r.code);
  pair(T.station, `${lang.name(r.siteName)} (${lang.name(r.companyName)})`);
  pair(T.month, r.month);
  pair(T.period, `${r.periodStart} ~ ${r.periodEnd}`);
  pair(T.currency, r.currency);
  pair(T.state, t(STATEMENT_STATE_LABELS[r.state]));
  pair(T.investor, r.investorName);
  pair(T.powerUser, r.powerUserName);
  pair(T.ratio, `${r.investorShareRatio}%`);
  if (doc.contact || doc.phone) pair(T.contact, [doc.contact, doc.phone].filter(Boolean).join(' '));
  pdf.moveDown();

  // Lines by register.
  const cols = [
    { h: T.category, w: 0.16 }, { h: T.register, w: 0.06 }, { h: T.meter, w: 0.13 }, { h: T.dates, w: 0.2 },
    { h: T.energy, w: 0.12, right: true }, { h: T.price, w: 0.09, right: true }, { h: T.amount, w: 0.11, right: true }, { h: T.quality, w: 0.13 },
  ];
  const row = (cells: string[], bold = false) => {
    const y = pdf.y;
    let x = left;
    let h = 0;
    pdf.fontSize(bold ? 8.5 : 8);
    cells.forEach((c, i) => {
      const w = cols[i]!.w * width;
      pdf.text(c, x + 2, y, { width: w - 4, align: cols[i]!.right ? 'right' : 'left' });
      h = Math.max(h, pdf.y - y);
      x += w;
    });
    pdf.y = y + h + 3;
    pdf.x = left;
    if (pdf.y > pdf.page.height - 80) pdf.addPage();
  };
  row(cols.map((c) => (c.h === T.energy ? `${t(c.h)} (kWh)` : t(c.h))), true);
  pdf.moveTo(left, pdf.y).lineTo(left + width, pdf.y).stroke();
  pdf.y += 3;
  for (const l of doc.lines) {
    row([
      t(SETTLEMENT_CATEGORY_LABELS[l.category]), l.period ? t(PRICE_PERIOD_LABELS[l.period]) : '', l.meterName ? lang.name(l.meterName) : t(T.stationLevel),
      dates(l), l.energy, l.price, l.amount, qualityText(l, lang),
    ]);
  }
  pdf.moveTo(left, pdf.y).lineTo(left + width, pdf.y).stroke();
  pdf.moveDown();

  pdf.fontSize(10);
  pair(T.storageRevenue, `${r.storageRevenue} ${r.currency}`);
  pair(T.pvRevenue, `${r.pvRevenue} ${r.currency}`);
  pair(T.pileRevenue, `${r.pileRevenue} ${r.currency}`);
  pair(T.totalRevenue, `${r.totalRevenue} ${r.currency}`);
  pair(T.investorAmount, `${r.investorAmount} ${r.currency}`);
  pair(T.powerUserAmount, `${r.powerUserAmount} ${r.currency}`);
  pdf.moveDown();

  if (doc.journal.length) {
    pdf.fontSize(11).text(t(T.journal));
    pdf.fontSize(8);
    for (const j of doc.journal) {
      pdf.text(`${j.createdAt.slice(0, 19).replace('T', ' ')} UTC  ${lang.name(j.username)}  ${t(STATEMENT_ACTION_LABELS[j.action])} → ${t(STATEMENT_STATE_LABELS[j.toState])}${j.note ? `  (${j.note})` : ''}`);
    }
    pdf.moveDown();
  }

  if (pdf.y > pdf.page.height - 140) pdf.addPage();
  pdf.fontSize(11).text(t(T.signatures));
  pdf.moveDown(0.5);
  const y = pdf.y;
  pdf.fontSize(10);
  pdf.text(`${t(T.signInvestor)}: ${r.investorName}`, left, y, { width: width / 2 - 10 });
  pdf.text(`${t(T.signPowerUser)}: ${r.powerUserName}`, left + width / 2, y, { width: width / 2 - 10 });
  const line = y + 45;
  pdf.moveTo(left, line).lineTo(left + width / 2 - 20, line).stroke();
  pdf.moveTo(left + width / 2, line).lineTo(left + width - 10, line).stroke();
  pdf.text(`${t(T.date)}: ____________`, left, line + 8);
  pdf.text(`${t(T.date)}: ____________`, left + width / 2, line + 8);
  pdf.end();
  return done;
}

export const PDF_MIME = 'application/pdf';

/** GET /operation/statement/download: the file in the asked format. */
export async function sendStatement(reply: FastifyReply, doc: StatementDocument, format: StatementFormat, lang: ExportLanguage) {
  const name = lang.t(T.fileName, doc.record.siteName, doc.record.month);
  if (format === 'pdf') return sendFile(reply, `${name}.pdf`, PDF_MIME, await statementPdf(doc, lang));
  return sendFile(reply, `${name}.xlsx`, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', await statementXlsx(doc, lang));
}
