import { ALARM_LEVEL_LABELS, type AlarmLevel } from '@ess/contract/alarm';
import { Tag } from 'antd';
import { useT } from '../platform/i18n/useT.ts';
import { levelColour } from './options/levels.ts';

/** An alarm level as a tag in the level's colour (white text: 4.5:1 on every level colour). */
export function LevelTag({ level }: { level: number }) {
  const t = useT();
  const label = ALARM_LEVEL_LABELS[level as AlarmLevel];
  return (
    <Tag color={levelColour(level)} style={{ color: '#fff' }} data-testid="alarm-level" data-level={level}>
      {label ? t(label) : level}
    </Tag>
  );
}
