import { ResourceTable } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { keyResource } from './key.resource.tsx';

/** The signature keys tab of /firmware/firmware. */
export function KeysPanel() {
  const t = useT();
  return <ResourceTable def={keyResource} emptyText={t('还没有公钥：添加公钥后，上传时的签名才能被验证')} />;
}
