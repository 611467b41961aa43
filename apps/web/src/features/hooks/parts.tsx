import { CheckCircleOutlined, PoweroffOutlined } from '@ant-design/icons';
import { type HookCircuitState, type HookRecordState, HOOK_CIRCUIT_STATE_LABELS, HOOK_RECORD_STATE_LABELS } from '@ess/contract/hooks';
import { Typography } from 'antd';
import { ToneTag } from '../../components/ToneTag.tsx';
import { useT } from '../../platform/i18n/useT.ts';
import { CIRCUIT_TONES, RECORD_STATE_TONES } from './hooks.options.ts';

/** An execution record's state as its coloured tag. */
export function RecordStateTag({ state }: { state: HookRecordState }) {
  const t = useT();
  return <ToneTag tone={RECORD_STATE_TONES[state]} testId={`record-state-${state}`}>{t(HOOK_RECORD_STATE_LABELS[state])}</ToneTag>;
}

/** A hook's circuit (closed: delivering; open: paused after consecutive failures) with the failures counted. */
export function CircuitTag({ circuit, failures }: { circuit: HookCircuitState; failures?: number }) {
  const t = useT();
  return (
    <span data-testid={`circuit-${circuit}`}>
      <ToneTag tone={CIRCUIT_TONES[circuit]}>{t(HOOK_CIRCUIT_STATE_LABELS[circuit])}</ToneTag>
      {failures ? <Typography.Text type="secondary"> {t('连续失败 $1 次', failures)}</Typography.Text> : null}
    </span>
  );
}

/** JSON (or text) in a scrolling block; `-` when there is nothing. */
export function JsonBlock({ value, testId, label }: { value: unknown; testId?: string; label?: string }) {
  if (value === null || value === undefined) return <span data-testid={testId}>-</span>;
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return (
    <pre className="ess-hook-json" data-testid={testId} tabIndex={0} aria-label={label}>
      {text}
    </pre>
  );
}

export const ON_ICON = <CheckCircleOutlined />;
export const OFF_ICON = <PoweroffOutlined />;
