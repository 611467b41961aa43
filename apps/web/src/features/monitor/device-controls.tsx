import type { DeviceProperty, DeviceRecord } from '@ess/contract/device';
import type { ReactNode } from 'react';
import { ControlPanel } from './ControlPanel.tsx';
import { StorageControl } from './StorageControl.tsx';
import { hasStorageControl } from './storage.ts';

/** What a control section draws with: the device and its latest values. */
export interface ControlSectionProps {
  device: DeviceRecord;
  properties: readonly DeviceProperty[];
}

/**
 * One section of the device page's controls area. A section says which devices it serves and
 * draws its own card; it shows its actions only when the user may make the calls behind them
 * (useCan / canCall on its endpoints), and draws nothing when none is left.
 */
export interface ControlSection {
  key: string;
  appliesTo: (device: DeviceRecord) => boolean;
  render: (props: ControlSectionProps) => ReactNode;
}

/**
 * The controls area's sections, in order: the storage operation on a PCS or EMS (mode
 * auto/manual/standby, manual charge/discharge with a power set-point within the device's rating
 * and a duration; StorageControl.tsx), then the remote commands of the device's type (on/off,
 * reset, set-points of piles and air conditioners).
 */
export const CONTROL_SECTIONS: readonly ControlSection[] = [
  { key: 'storage', appliesTo: hasStorageControl, render: (p) => <StorageControl device={p.device} properties={p.properties} /> },
  { key: 'commands', appliesTo: () => true, render: (p) => <ControlPanel device={p.device} properties={p.properties} /> },
];

/** The device page's controls area: every section that serves this device, in order. */
export function DeviceControls({ device, properties, sections = CONTROL_SECTIONS }: ControlSectionProps & { sections?: readonly ControlSection[] }) {
  const shown = sections.filter((s) => s.appliesTo(device));
  if (!shown.length) return null;
  return (
    <div data-testid="device-controls" style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      {shown.map((s) => (
        <div key={s.key} data-section={s.key}>
          {s.render({ device, properties })}
        </div>
      ))}
    </div>
  );
}
