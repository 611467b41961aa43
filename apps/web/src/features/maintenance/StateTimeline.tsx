import type { MaintLogRecord } from '@ess/contract/maintenance';
import { Timeline, Typography } from 'antd';
import { formatDateTime } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';

/** The state journal of an order: who, when, from which state to which, and the note. */
export function StateTimeline({ log, stateLabels, actionLabels }: {
  log: readonly MaintLogRecord[];
  stateLabels: Record<string, string>;
  actionLabels: Record<string, string>;
}) {
  const t = useT();
  if (!log.length) return <Typography.Text type="secondary">{t('暂无记录')}</Typography.Text>;
  // The journal's first row of an order created by hand or by the generator.
  const label = (s: string, labels: Record<string, string>) => (labels[s] ? t(labels[s]) : s === 'create' ? t('创建') : s);
  return (
    <Timeline
      data-testid="state-timeline"
      items={log.map((l) => ({
        key: l.id,
        color: l.toState === 'closed' ? 'gray' : l.toState === 'completed' ? 'green' : 'blue',
        children: (
          <div data-log-action={l.action}>
            <Typography.Text strong>{label(l.action, actionLabels)}</Typography.Text>{' '}
            <Typography.Text type="secondary">
              {l.fromState === l.toState ? label(l.toState, stateLabels) : `${label(l.fromState, stateLabels)} → ${label(l.toState, stateLabels)}`}
            </Typography.Text>
            <div>
              <Typography.Text type="secondary">
                {l.username === '系统' ? t('系统') : l.username} · {formatDateTime(l.createdAt)}
              </Typography.Text>
            </div>
            {l.note && <Typography.Paragraph className="ess-log-note">{l.note}</Typography.Paragraph>}
          </div>
        ),
      }))}
    />
  );
}
