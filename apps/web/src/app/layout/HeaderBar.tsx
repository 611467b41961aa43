import { Space } from 'antd';
import { LanguageSwitch } from '../../components/LanguageSwitch.tsx';
import { UnreadBell } from './HeaderActions.tsx';

export function HeaderBar() {
  return (
    <Space size={4}>
      <LanguageSwitch />
      <UnreadBell />
    </Space>
  );
}
