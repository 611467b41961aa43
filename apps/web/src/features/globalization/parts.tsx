import { TRANSLATION_STATE_LABELS, type CompletionCounts, type TranslationState } from '@ess/contract/i18n';
import { Progress, Space, Tooltip, Typography } from 'antd';
import { ToneTag } from '../../components/ToneTag.tsx';
import { formatNumber } from '../../components/number-format.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { STATE_TONES } from './globalization.options.ts';

/** A translation's state as its coloured tag. */
export function StateTag({ state }: { state: TranslationState }) {
  const t = useT();
  return <ToneTag tone={STATE_TONES[state]} testId={`state-${state}`}>{t(TRANSLATION_STATE_LABELS[state])}</ToneTag>;
}

const SHOWN: TranslationState[] = ['reviewed', 'translated', 'machine', 'outdated', 'untranslated'];
const percentOf = (n: number, total: number) => (total ? Math.round((n / total) * 1000) / 10 : 0);

/** A language's completion: the share done (translated + reviewed) and the count and share of every state. */
export function CompletionCell({ counts, testId }: { counts: CompletionCounts; testId: string }) {
  const t = useT();
  return (
    <div data-testid={testId} style={{ minWidth: 140 }}>
      {/* Status "normal" also at 100 %: the success status colours the figure green, below AA contrast. */}
      <Progress percent={counts.percent} status="normal" size="small" aria-label={t('完成度')} format={(p) => `${formatNumber(p ?? 0, { maxDecimals: 1 })}%`} />
      <Space size={[4, 2]} wrap>
        {SHOWN.filter((s) => counts[s] > 0).map((s) => (
          <Tooltip key={s} title={`${t(TRANSLATION_STATE_LABELS[s])}: ${formatNumber(percentOf(counts[s], counts.total), { maxDecimals: 1 })}%`}>
            <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid={`${testId}-${s}`}>
              {t(TRANSLATION_STATE_LABELS[s])} {formatNumber(counts[s])}
            </Typography.Text>
          </Tooltip>
        ))}
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t('共 $1 条', formatNumber(counts.total))}</Typography.Text>
      </Space>
    </div>
  );
}

/** The checks' messages (contract I18N_ERRORS) and the server's refusals through the pack, with their value as the placeholder. */
const PROBLEM_TEMPLATES: [RegExp, string][] = [
  [/^译文缺少占位符 (\$\d+)$/, '译文缺少占位符 $1'],
  [/^译文多出原文没有的占位符 (\$\d+)$/, '译文多出原文没有的占位符 $1'],
  [/^译文过长（最多 (\d+) 个字符）$/, '译文过长（最多 $1 个字符）'],
  [/^语言不存在：(.+)$/, '语言不存在：$1'],
  [/^语言未启用：(.+)$/, '语言未启用：$1'],
  [/^翻译引擎连接失败：(.+)$/, '翻译引擎连接失败：$1'],
  [/^翻译引擎不支持该语言：(.+)$/, '翻译引擎不支持该语言：$1'],
];
export function problemText(message: string, t: (source: string, ...args: unknown[]) => string): string {
  for (const [re, source] of PROBLEM_TEMPLATES) {
    const m = re.exec(message);
    if (m) return t(source, m[1]);
  }
  return message.split('；').map((p) => t(p)).join('; ');
}
