import type { ThemeConfig } from 'antd';

/**
 * Brand green, error red and the grey of secondary text, dark enough for 4.5:1 contrast on white
 * (WCAG AA): text on primary buttons, links, danger buttons, field errors, breadcrumbs. antd's
 * defaults (#13a36b, #1677ff links, #ff4d4f, 45 % grey) fall short.
 */
export const THEME: ThemeConfig = {
  token: {
    colorPrimary: '#0d8050',
    colorLink: '#0d8050',
    colorError: '#cf1322',
    colorTextDescription: 'rgba(0, 0, 0, 0.62)',
    colorTextTertiary: 'rgba(0, 0, 0, 0.62)',
  },
};
