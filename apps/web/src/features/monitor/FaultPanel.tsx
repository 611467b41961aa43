import { Card, Empty, Table, Tag } from 'antd';
import { useT } from '../../platform/i18n/useT.ts';
import { formatTime } from '../../components/format.ts';
import { useDeviceFaults } from './monitor.api.ts';

const LEVEL_COLOURS: Record<number, string> = { 1: 'red', 2: 'volcano', 3: 'orange', 4: 'gold', 5: 'blue' };

/** Active faults of a device and its latest fault transitions, read again every 10 s. */
export function FaultPanel({ deviceId }: { deviceId: number }) {
  const t = useT();
  const faults = useDeviceFaults(deviceId);
  const active = faults.data?.active ?? [];
  const recent = faults.data?.recent ?? [];
  return (
    <Card title={t('故障告警')} data-testid="fault-panel">
      {active.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('当前无故障')} />
      ) : (
        <Table
          rowKey="code"
          size="small"
          pagination={false}
          dataSource={active}
          columns={[
            { title: t('告警等级'), dataIndex: 'level', width: 90, render: (v: number | null) => (v ? <Tag color={LEVEL_COLOURS[v]}>{t('$1级', v)}</Tag> : '-') },
            { title: t('故障名称'), dataIndex: 'name', render: (v: string) => t(v) },
            { title: t('故障代码'), dataIndex: 'code' },
            { title: t('开始时间'), dataIndex: 'since', render: (v: string) => formatTime(v) },
          ]}
        />
      )}
      {recent.length > 0 && (
        <Table
          style={{ marginTop: 16 }}
          title={() => t('最近变化')}
          rowKey={(r) => `${r.code}-${r.ts}-${String(r.active)}`}
          size="small"
          pagination={false}
          dataSource={recent.slice(0, 10)}
          columns={[
            { title: t('时间'), dataIndex: 'ts', width: 170, render: (v: string) => formatTime(v) },
            { title: t('故障名称'), dataIndex: 'name', render: (v: string) => t(v) },
            { title: t('变化'), dataIndex: 'active', width: 90, render: (v: boolean) => (v ? <Tag color="red">{t('出现')}</Tag> : <Tag color="green">{t('恢复')}</Tag>) },
          ]}
        />
      )}
    </Card>
  );
}
