import { PlusOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { ResourceTable } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { companyResource } from './company.resource.tsx';

/** /system/company: the company tree with add (also under a chosen company), edit, detail, delete. */
export function CompanyPage() {
  const t = useT();
  return (
    <ResourceTable
      def={companyResource}
      rowActions={(row, ctx) => [
        <Button key="child" type="link" size="small" icon={<PlusOutlined />} onClick={() => ctx.openAdd({ parentId: row.id })}>
          {t('新增下级')}
        </Button>,
      ]}
    />
  );
}
