import type { DeviceStatus } from '@ess/contract/device';
import { DEVICE_STATUS_LABELS } from '@ess/contract/device';
import { Badge } from 'antd';
import { useT } from '../platform/i18n/useT.ts';

/** A device's live state (online, offline, disabled, inactive) as a coloured dot and its name. */
export function StatusBadge({ status }: { status: DeviceStatus }) {
  const t = useT();
  const s = DEVICE_STATUS_LABELS[status];
  return <Badge color={s.colour} text={t(s.label)} data-testid="device-status" data-status={status} />;
}
