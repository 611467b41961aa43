import type { ThemeConfig } from 'antd';

/**
 * Brand green, error red and the grey of secondary text, dark enough for 4.5:1 contrast on white
 * (WCAG AA): text on primary buttons, links, danger buttons, field errors, breadcrumbs. antd's
 * defaults (#13a36b, #1677ff links, #ff4d4f, 45 % grey) fall short. The side menu's selected page:
 * antd derives a greyish tint from this dark green (2.9:1 under the green text); a light green
 * with a darker green text is 5.5:1. An empty table's note: see Table below. A field's placeholder
 * ("全部站点", "请选择设备") is the only text an empty picker shows: antd draws it in the 25 % grey
 * (#bfbfbf, 1.8:1); 56 % black (#707070) is 4.9:1 on white and still lighter than a chosen value.
 */
export const THEME: ThemeConfig = {
  token: {
    colorPrimary: '#0d8050',
    colorLink: '#0d8050',
    colorError: '#cf1322',
    colorTextDescription: 'rgba(0, 0, 0, 0.62)',
    colorTextTertiary: 'rgba(0, 0, 0, 0.62)',
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.56)',
  },
  components: {
    Menu: { itemSelectedBg: '#e7f3ed', itemSelectedColor: '#0b6e45' },
    // An empty table's note ("没有进行中的告警") is drawn in the disabled grey (25 %, 1.6:1): it is
    // text to read, so it takes the secondary grey. Disabled controls elsewhere keep theirs.
    Table: { colorTextDisabled: 'rgba(0, 0, 0, 0.62)' },
  },
};
