import { SendOutlined } from '@ant-design/icons';
import type { PushLogOne } from '@ess/contract/system';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Table, Typography } from 'antd';
import { useState } from 'react';
import { formatDateTime, ResourceTable, StatusBadge } from '../../components/crud/index.ts';
import { ResourceForm } from '../../components/crud/ResourceForm.tsx';
import { useT } from '../../platform/i18n/useT.ts';
import { pushLogResource, READ_STATE, settingResource } from './notification.resource.tsx';
import { systemKeys } from './system.keys.ts';

function Recipients({ log }: { log: PushLogOne }) {
  const t = useT();
  return (
    <>
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        {t('接收人')}
      </Typography.Title>
      <Table
        size="small"
        rowKey="userId"
        dataSource={log.recipients}
        pagination={log.recipients.length > 10 ? { pageSize: 10 } : false}
        columns={[
          { key: 'username', dataIndex: 'username', title: t('用户名') },
          { key: 'name', dataIndex: 'name', title: t('姓名') },
          { key: 'read', title: t('状态'), render: (_v, r) => <StatusBadge options={READ_STATE} value={r.read} t={t} /> },
          { key: 'readAt', title: t('阅读时间'), render: (_v, r) => formatDateTime(r.readAt) },
        ]}
      />
    </>
  );
}

/** /system/messagePush: push a notification (now or scheduled) and see every push with its recipients. */
export function MessagePushPage() {
  const t = useT();
  const client = useQueryClient();
  const [pushing, setPushing] = useState(false);
  return (
    <>
      <ResourceTable
        def={pushLogResource}
        toolbar={() => [
          <Button key="push" type="primary" icon={<SendOutlined />} onClick={() => setPushing(true)}>
            {t('推送消息')}
          </Button>,
        ]}
        detailExtra={(log) => <Recipients log={log} />}
      />
      {pushing && (
        <ResourceForm
          def={settingResource}
          mode="add"
          onClose={() => setPushing(false)}
          onSaved={() => {
            setPushing(false);
            void client.invalidateQueries({ queryKey: systemKeys.notification });
          }}
        />
      )}
    </>
  );
}
