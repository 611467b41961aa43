import type { ImportRowError } from '@ess/contract/common';
import { Alert, Modal, Table } from 'antd';
import { useT } from '../platform/i18n/useT.ts';

/** The per-row report of a refused import (uploadSheet): which row, which column, why. Nothing was written. */
export function ImportReport({ tip, errors, onClose }: { tip: string; errors: ImportRowError[]; onClose: () => void }) {
  const t = useT();
  return (
    <Modal open title={t('导入失败')} onCancel={onClose} onOk={onClose} cancelButtonProps={{ style: { display: 'none' } }} okText={t('关闭')} width={720}>
      <Alert type="error" showIcon message={t(tip)} description={t('文件未导入任何数据，请修改以下错误后重新导入')} style={{ marginBottom: 12 }} />
      <Table<ImportRowError & { key: number }>
        data-testid="import-errors"
        size="small"
        rowKey="key"
        dataSource={errors.map((e, key) => ({ ...e, key }))}
        pagination={errors.length > 10 ? { pageSize: 10 } : false}
        columns={[
          { title: t('行号'), dataIndex: 'row', width: 80, render: (v: number) => (v > 0 ? v : '-') },
          { title: t('列'), dataIndex: 'column', width: 160, render: (v: string) => v || '-' },
          { title: t('错误原因'), dataIndex: 'message' },
        ]}
      />
    </Modal>
  );
}
