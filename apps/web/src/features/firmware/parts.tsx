import { CheckCircleOutlined, SafetyCertificateOutlined, WarningOutlined } from '@ant-design/icons';
import {
  FIRMWARE_CAPTURE_STATE_LABELS, FIRMWARE_GROUP_STATE_LABELS, FIRMWARE_LOG_STATE_LABELS, FIRMWARE_PACKAGE_STATE_LABELS, FIRMWARE_ROLLOUT_STATE_LABELS,
  FIRMWARE_TASK_STATE_LABELS, FIRMWARE_WAIT_REASON_LABELS, type FirmwareCaptureState, type FirmwareGroupState, type FirmwareLogState,
  type FirmwarePackageState, type FirmwareRolloutState, type FirmwareTaskState, type FirmwareWaitReason,
} from '@ess/contract/firmware';
import { Button, Tag, Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';
import { TONE_COLOURS, ToneTag } from '../../components/ToneTag.tsx';
import { useT } from '../../platform/i18n/useT.ts';
import { CAPTURE_STATE_TONES, GROUP_STATE_TONES, LOG_STATE_TONES, PACKAGE_STATE_TONES, ROLLOUT_STATE_TONES, TASK_STATE_TONES } from './firmware.options.ts';

/** A device task's state (product-spec §4 labels) as its coloured tag, with the download progress while downloading. */
export function TaskStateTag({ state, progress }: { state: FirmwareTaskState; progress?: number | null }) {
  const t = useT();
  const label = t(FIRMWARE_TASK_STATE_LABELS[state]);
  return (
    <ToneTag tone={TASK_STATE_TONES[state]} testId={`task-state-${state}`}>
      {state === 'downloading' && progress !== null && progress !== undefined ? `${label} ${Math.round(progress)}%` : label}
    </ToneTag>
  );
}

/** Why a task waits (the safe gate or the window), beside its state. */
export function WaitReason({ reason }: { reason: FirmwareWaitReason | null }) {
  const t = useT();
  if (!reason) return null;
  return (
    <Typography.Text type="warning" data-testid={`wait-${reason}`}>
      <WarningOutlined /> {t('等待：$1', t(FIRMWARE_WAIT_REASON_LABELS[reason]))}
    </Typography.Text>
  );
}

export function RolloutStateTag({ state }: { state: FirmwareRolloutState }) {
  const t = useT();
  return <ToneTag tone={ROLLOUT_STATE_TONES[state]} testId={`rollout-state-${state}`}>{t(FIRMWARE_ROLLOUT_STATE_LABELS[state])}</ToneTag>;
}

export function GroupStateTag({ state }: { state: FirmwareGroupState }) {
  const t = useT();
  return <ToneTag tone={GROUP_STATE_TONES[state]} testId={`group-state-${state}`}>{t(FIRMWARE_GROUP_STATE_LABELS[state])}</ToneTag>;
}

/** One device's log upload (product-spec §4: uploading, upload complete, upload timeout, upload failed). */
export function LogStateTag({ state }: { state: FirmwareLogState }) {
  const t = useT();
  return <ToneTag tone={LOG_STATE_TONES[state]} testId={`log-state-${state}`}>{t(FIRMWARE_LOG_STATE_LABELS[state])}</ToneTag>;
}

export function CaptureStateTag({ state }: { state: FirmwareCaptureState }) {
  const t = useT();
  return <ToneTag tone={CAPTURE_STATE_TONES[state]} testId={`capture-state-${state}`}>{t(FIRMWARE_CAPTURE_STATE_LABELS[state])}</ToneTag>;
}

export function PackageStateTag({ state }: { state: FirmwarePackageState }) {
  const t = useT();
  return <ToneTag tone={PACKAGE_STATE_TONES[state]} testId={`package-state-${state}`}>{t(FIRMWARE_PACKAGE_STATE_LABELS[state])}</ToneTag>;
}

/** Signed (with the key that verified it) or unsigned. */
export function SignedTag({ signed, keyName }: { signed: boolean; keyName?: string | null }) {
  const t = useT();
  return signed ? (
    <Tooltip title={keyName ? t('由公钥「$1」验证', keyName) : undefined}>
      <Tag color={TONE_COLOURS.success} style={{ color: '#fff' }} icon={<SafetyCertificateOutlined />} data-testid="signed-yes">
        {t('已签名')}
      </Tag>
    </Tooltip>
  ) : (
    <Tag data-testid="signed-no">{t('未签名')}</Tag>
  );
}

/** A SHA-256 in full, monospaced and copyable. */
export function Sha256({ value }: { value: string }) {
  return (
    <Typography.Text code copyable={{ text: value }} data-testid="sha256" style={{ wordBreak: 'break-all' }}>
      {value}
    </Typography.Text>
  );
}

/** A row's link-style action button. */
export function LinkButton({ icon, text, onClick, testId, loading, danger, disabled }: {
  icon?: ReactNode; text: string; onClick: () => void; testId: string; loading?: boolean; danger?: boolean; disabled?: boolean;
}) {
  return (
    <Button type="link" size="small" icon={icon} onClick={onClick} data-testid={testId} loading={loading} danger={danger} disabled={disabled}>
      {text}
    </Button>
  );
}

export const DONE_ICON = <CheckCircleOutlined />;

/** A positive id from the query string, or null. */
export function idParam(search: URLSearchParams, name = 'id'): number | null {
  const v = Number(search.get(name));
  return Number.isInteger(v) && v > 0 ? v : null;
}
