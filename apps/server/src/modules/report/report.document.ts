import { REPORT_TEMPLATE_LABELS, type ReportChart, type ReportColumn, type ReportFigure } from '@ess/contract/report';
import { xlsxBook, type ExportLanguage, type XlsxBookSheet, type XlsxColumn } from '../../platform/xlsx/xlsx.ts';
import { openPdf } from '../statement/index.ts';
import { tableTotals, type Report } from './report.service.ts';
import type { Cell, FullTable, Row } from './report.templates.ts';

/**
 * A report as a file in the reader's language: xlsx (a parameters sheet with the headline
 * figures, then one sheet per table: frozen header, units in the headers, a total row of SUM
 * formulas) and PDF (a title page with the parameters and figures, the tables with their header
 * repeated on each page, the charts drawn as vector graphics, page numbers "n / N").
 */

export const DT = {
  parameters: '报表参数',
  template: '报表模板',
  stations: '站点',
  period: '统计周期',
  granularity: '统计粒度',
  currency: '币种',
  allCurrencies: '全部',
  generatedAt: '生成时间',
  figures: '汇总指标',
  item: '项目',
  value: '数值',
  total: '合计',
  page: '第 $1 / $2 页',
  day: '按日',
  month: '按月',
} as const;

const text = (c: ReportColumn, v: Cell, lang: ExportLanguage): string => {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return c.decimals === null ? String(v) : v.toFixed(c.decimals);
  if (c.kind === 'label') return lang.t(v);
  if (c.kind === 'name') return lang.name(v);
  return v;
};
const header = (c: ReportColumn, lang: ExportLanguage) => (c.unit ? `${lang.t(c.title)} (${lang.t(c.unit)})` : lang.t(c.title));
const figureLabel = (f: ReportFigure, lang: ExportLanguage) => lang.t(f.label, ...f.args);
const figureValue = (f: ReportFigure, lang: ExportLanguage) => (f.value === null ? '—' : `${f.value.toFixed(f.decimals)}${f.unit ? ` ${lang.t(f.unit)}` : ''}`);

/** The parameters as label/value pairs (title page, first sheet). */
function parameterLines(r: Report, lang: ExportLanguage): [string, string][] {
  const p = r.params;
  return [
    [lang.t(DT.template), lang.t(REPORT_TEMPLATE_LABELS[p.template])],
    [lang.t(DT.stations), r.stations.map((s) => lang.name(s.name)).join(', ')],
    [lang.t(DT.period), `${p.start} ~ ${p.end}`],
    [lang.t(DT.granularity), lang.t(p.granularity === 'day' ? DT.day : DT.month)],
    [lang.t(DT.currency), p.currency ?? lang.t(DT.allCurrencies)],
    [lang.t(DT.generatedAt), `${new Date(Date.parse(r.generatedAt) + lang.zone * 60_000).toISOString().slice(0, 19).replace('T', ' ')} (UTC${lang.zone >= 0 ? '+' : '-'}${String(Math.floor(Math.abs(lang.zone) / 60)).padStart(2, '0')}:${String(Math.abs(lang.zone) % 60).padStart(2, '0')})`],
  ];
}

// ── xlsx ──────────────────────────────────────────────────────────────────────────────

export function reportXlsx(r: Report, lang: ExportLanguage): Promise<Buffer> {
  const kv = (label: string): XlsxColumn<[string, string | number | null]> => ({ header: label, width: 28, value: (x) => (label === DT.item ? x[0] : x[1]) });
  const first: XlsxBookSheet<[string, string | number | null]> = {
    sheet: DT.parameters,
    columns: [kv(DT.item), { ...kv(DT.value), width: 60 }],
    rows: [...parameterLines(r, lang), ['', null], ...r.figures.map((f): [string, string | number | null] => [`${figureLabel(f, lang)}${f.unit ? ` (${lang.t(f.unit)})` : ''}`, f.value])],
  };
  const sheets: XlsxBookSheet<Row>[] = r.tables.map((t) => tableSheet(t, lang));
  return xlsxBook([first, ...sheets], lang);
}

function tableSheet(t: FullTable, lang: ExportLanguage): XlsxBookSheet<Row> {
  const totals = tableTotals(t);
  const sums = t.columns.map((c, i) => (c.sum ? i : -1)).filter((i) => i >= 0);
  return {
    sheet: t.title,
    columns: t.columns.map((c) => ({
      header: c.title,
      ...(c.unit ? { unit: lang.t(c.unit) } : {}),
      width: c.kind === 'number' ? 16 : 24,
      ...(c.kind === 'number' && c.decimals !== null ? { numFmt: c.decimals === 0 ? '#,##0' : `#,##0.${'0'.repeat(c.decimals)}` } : {}),
      ...(c.kind === 'label' || c.kind === 'name' ? { kind: c.kind } : {}),
      value: (row: Row) => row[c.key] ?? null,
    })),
    rows: t.rows,
    ...(sums.length ? { total: { label: DT.total, columns: sums, values: sums.map((i) => totals[t.columns[i]!.key] ?? 0) } } : {}),
  };
}

// ── PDF ───────────────────────────────────────────────────────────────────────────────

type PdfDoc = ReturnType<typeof openPdf>['pdf'];

const MARGIN = 40;
const COLOURS = ['#1677ff', '#52c41a', '#fa8c16', '#eb2f96', '#722ed1', '#13c2c2', '#a0d911', '#f5222d'];

/** `onProgress(fraction)` after each table (a long report reports as it goes). */
export function reportPdf(r: Report, lang: ExportLanguage, onProgress: (f: number) => void = () => {}): Promise<Buffer> {
  const title = lang.t(REPORT_TEMPLATE_LABELS[r.params.template]);
  const { pdf, done } = openPdf(lang.locale, { title, bufferPages: true });
  const width = pdf.page.width - 2 * MARGIN;
  const bottom = () => pdf.page.height - MARGIN - 20;

  // Title page: the title, the parameters, the headline figures.
  pdf.y = 160;
  pdf.fontSize(24).text(title, MARGIN, pdf.y, { width, align: 'center' });
  pdf.moveDown(2);
  pdf.fontSize(11);
  for (const [k, v] of parameterLines(r, lang)) pdf.text(`${k}: ${v}`, MARGIN, pdf.y, { width });
  pdf.moveDown();
  pdf.fontSize(13).text(lang.t(DT.figures), MARGIN, pdf.y, { width });
  pdf.moveDown(0.3);
  pdf.fontSize(11);
  for (const f of r.figures) pdf.text(`${figureLabel(f, lang)}: ${figureValue(f, lang)}`, MARGIN, pdf.y, { width });

  // Charts.
  for (const c of r.charts) {
    pdf.addPage();
    drawChart(pdf, c, lang, MARGIN, MARGIN, width, 300);
  }

  // Tables.
  r.tables.forEach((t, k) => {
    pdf.addPage();
    pdf.fontSize(13).text(lang.t(t.title), MARGIN, pdf.y, { width });
    pdf.moveDown(0.3);
    const w = t.columns.map((c) => (c.kind === 'number' ? 1 : 1.6));
    const unit = width / w.reduce((a, b) => a + b, 0);
    const row = (cells: string[], bold: boolean) => {
      const y = pdf.y;
      let x = MARGIN;
      let h = 0;
      pdf.fontSize(bold ? 8.5 : 8);
      cells.forEach((cell, i) => {
        const cw = w[i]! * unit;
        pdf.text(cell, x + 2, y, { width: cw - 4, align: t.columns[i]!.kind === 'number' ? 'right' : 'left' });
        h = Math.max(h, pdf.y - y);
        x += cw;
      });
      pdf.y = y + h + 3;
      pdf.x = MARGIN;
    };
    const head = () => {
      row(t.columns.map((c) => header(c, lang)), true);
      pdf.moveTo(MARGIN, pdf.y).lineTo(MARGIN + width, pdf.y).stroke();
      pdf.y += 3;
    };
    head();
    for (const r0 of t.rows) {
      if (pdf.y > bottom()) {
        pdf.addPage();
        head();
      }
      row(t.columns.map((c) => text(c, r0[c.key] ?? null, lang)), false);
    }
    const totals = tableTotals(t);
    if (Object.keys(totals).length) {
      pdf.moveTo(MARGIN, pdf.y).lineTo(MARGIN + width, pdf.y).stroke();
      pdf.y += 3;
      row(t.columns.map((c, i) => (i === 0 ? lang.t(DT.total) : c.key in totals ? text(c, totals[c.key]!, lang) : '')), true);
    }
    onProgress((k + 1) / r.tables.length);
  });

  // Page numbers.
  const range = pdf.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    pdf.switchToPage(i);
    // Below the bottom margin: pdfkit would otherwise start a new page for the line.
    pdf.page.margins.bottom = 0;
    pdf.fontSize(8).text(lang.t(DT.page, i + 1, range.count), MARGIN, pdf.page.height - MARGIN + 10, { width, align: 'center', lineBreak: false });
  }
  pdf.end();
  return done;
}

/** A bar or line chart drawn with vector graphics: axes, a scale, labels and a legend. */
function drawChart(pdf: PdfDoc, c: ReportChart, lang: ExportLanguage, x: number, y: number, w: number, h: number) {
  pdf.fontSize(13).text(lang.t(c.title, ...c.series.map((s) => s.unit ?? '')), x, y, { width: w });
  const top = y + 30;
  const left = x + 50;
  const plotW = w - 60;
  const plotH = h - 70;
  const values = c.series.flatMap((s) => s.data.filter((v): v is number => v !== null));
  const max = Math.max(0, ...values);
  const min = Math.min(0, ...values);
  const span = max - min || 1;
  const yOf = (v: number) => top + plotH - ((v - min) / span) * plotH;
  pdf.lineWidth(0.5).strokeColor('#888');
  pdf.moveTo(left, top).lineTo(left, top + plotH).stroke();
  pdf.moveTo(left, yOf(0)).lineTo(left + plotW, yOf(0)).stroke();
  pdf.fillColor('#333').fontSize(7);
  for (let k = 0; k <= 4; k++) {
    const v = min + (span * k) / 4;
    pdf.text(v.toFixed(Math.abs(span) < 10 ? 2 : 0), x, yOf(v) - 3, { width: 46, align: 'right', lineBreak: false });
  }
  const n = Math.max(1, c.labels.length);
  const slot = plotW / n;
  const every = Math.ceil(n / 12);
  c.labels.forEach((l, i) => {
    if (i % every === 0) pdf.text(l, left + i * slot, top + plotH + 4, { width: Math.max(slot * every, 30), lineBreak: false });
  });
  c.series.forEach((s, k) => {
    const colour = COLOURS[k % COLOURS.length]!;
    if (c.kind === 'bar') {
      const bw = (slot * 0.8) / c.series.length;
      s.data.forEach((v, i) => {
        if (v === null) return;
        const bx = left + i * slot + slot * 0.1 + k * bw;
        const y0 = yOf(Math.max(0, v));
        pdf.rect(bx, y0, Math.max(bw, 0.5), Math.abs(yOf(v) - yOf(0))).fill(colour);
      });
    } else {
      let started = false;
      pdf.strokeColor(colour).lineWidth(1.2);
      s.data.forEach((v, i) => {
        if (v === null) { started = false; return; }
        const px = left + i * slot + slot / 2;
        if (started) pdf.lineTo(px, yOf(v));
        else pdf.moveTo(px, yOf(v));
        started = true;
      });
      pdf.stroke();
    }
    const ly = top + plotH + 20 + Math.floor(k / 4) * 12;
    const lx = left + (k % 4) * (plotW / 4);
    pdf.rect(lx, ly, 8, 8).fill(colour);
    pdf.fillColor('#333').fontSize(8).text(`${lang.t(s.name)}${s.unit ? ` (${lang.t(s.unit)})` : ''}`, lx + 12, ly, { width: plotW / 4 - 14, lineBreak: false });
  });
  pdf.fillColor('#000').strokeColor('#000').lineWidth(1);
  pdf.y = y + h;
  pdf.x = x;
}
