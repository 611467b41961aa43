import { ResourceTable } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { settingResource } from './setting.resource.tsx';

/** /demand/setting: the stations' demand targets (list, add; history by version). */
export function SettingPage() {
  const t = useT();
  return <ResourceTable def={settingResource} emptyText={t('尚未设置需量目标：新增一条，按站点和月份（或长期）设置目标需量和预警裕量')} />;
}
