import {
  AccountBookOutlined, AlertOutlined, ApiOutlined, AppstoreOutlined, AreaChartOutlined, CloudUploadOutlined, ClusterOutlined,
  DashboardOutlined, FileTextOutlined, FundOutlined, GlobalOutlined, HomeOutlined, LineChartOutlined, LinkOutlined,
  MailOutlined, MessageOutlined, MonitorOutlined, NotificationOutlined, ScheduleOutlined, SettingOutlined, TableOutlined,
  ToolOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';

const ICONS: Record<string, ReactNode> = {
  home: <HomeOutlined />,
  dashboard: <DashboardOutlined />,
  'account-book': <AccountBookOutlined />,
  'line-chart': <LineChartOutlined />,
  setting: <SettingOutlined />,
  monitor: <MonitorOutlined />,
  'area-chart': <AreaChartOutlined />,
  alert: <AlertOutlined />,
  tool: <ToolOutlined />,
  cluster: <ClusterOutlined />,
  appstore: <AppstoreOutlined />,
  api: <ApiOutlined />,
  global: <GlobalOutlined />,
  'file-text': <FileTextOutlined />,
  mail: <MailOutlined />,
  message: <MessageOutlined />,
  notification: <NotificationOutlined />,
  fund: <FundOutlined />,
  'cloud-upload': <CloudUploadOutlined />,
  link: <LinkOutlined />,
  table: <TableOutlined />,
  schedule: <ScheduleOutlined />,
};

/** The icon of a menu entry's icon name (the contract's menu table uses antd icon names). */
export const menuIcon = (name?: string | null): ReactNode => (name ? ICONS[name] : undefined);
