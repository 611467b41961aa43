import { ProfileOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { ResourceTable } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { priceTemplateResource } from './template.resource.tsx';

/**
 * /operatecfg/price: price templates with search, add, edit and delete (a template a station
 * uses cannot be deleted); each row leads to its cycles on /operatecfg/pricedetail.
 */
export function PricePage() {
  const t = useT();
  return (
    <ResourceTable
      def={priceTemplateResource}
      emptyText={t('还没有电价模板：新增模板后，在详情中设置各周期的分时时段和电价')}
      rowActions={(row) => [
        <Link key="cycles" to={`/operatecfg/pricedetail?id=${row.id}`} style={{ whiteSpace: 'nowrap', padding: '0 7px' }}>
          <ProfileOutlined /> {t('时段与电价')}
        </Link>,
      ]}
    />
  );
}
