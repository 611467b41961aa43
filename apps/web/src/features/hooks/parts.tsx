import { CheckCircleOutlined, PoweroffOutlined } from '@ant-design/icons';
import { type HookCircuitState, type HookRecordState, HOOK_CIRCUIT_STATE_LABELS, HOOK_RECORD_STATE_LABELS } from '@ess/contract/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
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

/** A row action's call: which one is running, and the screen's lists (under `root`) read again after it, whatever its outcome. */
export function useRowCall(root: readonly string[]) {
  const client = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  const run = async <T,>(key: string, fn: () => Promise<T>): Promise<T | undefined> => {
    setBusy(key);
    // A refusal has been shown by the request layer: the caller only sees undefined.
    const answer = await fn().then((v) => v, () => undefined);
    setBusy(null);
    void client.invalidateQueries({ queryKey: root });
    return answer;
  };
  return { busy, run };
}

/** A row's link-style action button. */
export function LinkButton({ icon, text, onClick, testId, loading, danger }: { icon?: ReactNode; text: string; onClick: () => void; testId: string; loading?: boolean; danger?: boolean }) {
  return (
    <Button type="link" size="small" icon={icon} onClick={onClick} data-testid={testId} loading={loading} danger={danger}>
      {text}
    </Button>
  );
}

export const ON_ICON = <CheckCircleOutlined />;
export const OFF_ICON = <PoweroffOutlined />;
