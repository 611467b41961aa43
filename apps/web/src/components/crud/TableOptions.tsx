import { ColumnHeightOutlined, ReloadOutlined, SettingOutlined } from '@ant-design/icons';
import { Button, Checkbox, Dropdown, Popover } from 'antd';
import type { SizeType } from 'antd/es/config-provider/SizeContext';
import { useT } from '../../platform/i18n/useT.ts';

export interface ColumnChoice {
  key: string;
  title: string;
}

export interface TableOptionsProps {
  onReload: () => void;
  density: SizeType;
  onDensity: (size: SizeType) => void;
  columns: readonly ColumnChoice[];
  /** Keys of the columns the user has hidden. */
  hidden: readonly string[];
  onHidden: (keys: string[]) => void;
}

const DENSITIES: { key: NonNullable<SizeType>; label: string }[] = [
  { key: 'large', label: '宽松' },
  { key: 'middle', label: '中等' },
  { key: 'small', label: '紧凑' },
];

/** The list's own tools at the end of its toolbar: refresh, row density, which columns show. */
export function TableOptions({ onReload, density, onDensity, columns, hidden, onHidden }: TableOptionsProps) {
  const t = useT();
  const shown = columns.filter((c) => !hidden.includes(c.key)).map((c) => c.key);
  const columnList = (
    <div className="ess-column-settings">
      <div className="ess-column-settings-head">
        <Checkbox
          checked={hidden.length === 0}
          indeterminate={hidden.length > 0 && hidden.length < columns.length}
          onChange={(e) => onHidden(e.target.checked ? [] : columns.map((c) => c.key))}
        >
          {t('全选')}
        </Checkbox>
        <Button type="link" size="small" onClick={() => onHidden([])}>
          {t('重置')}
        </Button>
      </div>
      <Checkbox.Group
        value={shown}
        onChange={(keys) => onHidden(columns.map((c) => c.key).filter((k) => !keys.includes(k)))}
        options={columns.map((c) => ({ value: c.key, label: c.title }))}
      />
    </div>
  );
  return (
    <div className="ess-table-options">
      <Button type="text" icon={<ReloadOutlined />} aria-label={t('刷新')} title={t('刷新')} onClick={onReload} />
      <Dropdown
        trigger={['click']}
        menu={{
          selectable: true,
          selectedKeys: [density ?? 'large'],
          items: DENSITIES.map((d) => ({ key: d.key, label: t(d.label) })),
          onClick: ({ key }) => onDensity(key as SizeType),
        }}
      >
        <Button type="text" icon={<ColumnHeightOutlined />} aria-label={t('表格密度')} title={t('表格密度')} />
      </Dropdown>
      <Popover trigger="click" placement="bottomRight" title={t('列设置')} content={columnList}>
        <Button type="text" icon={<SettingOutlined />} aria-label={t('列设置')} title={t('列设置')} />
      </Popover>
    </div>
  );
}
