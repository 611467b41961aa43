import type { DeviceRecord } from '@ess/contract/device';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DeviceControls, CONTROL_SECTIONS, type ControlSection } from './device-controls.tsx';

afterEach(cleanup);

const device = (type: string) => ({ id: 1, code: 'D1', name: '设备', type, status: 'online', disabled: false }) as unknown as DeviceRecord;

describe('the device page controls area', () => {
  it('has the storage section for a PCS or an EMS only, then the remote commands for every device type', () => {
    expect(CONTROL_SECTIONS.map((s) => s.key)).toEqual(['storage', 'commands']);
    const applying = (type: string) => CONTROL_SECTIONS.filter((s) => s.appliesTo(device(type))).map((s) => s.key);
    expect(applying('pcs')).toEqual(['storage', 'commands']);
    expect(applying('ems')).toEqual(['storage', 'commands']);
    expect(applying('bms')).toEqual(['commands']);
  });

  it('takes further sections that serve some device types: a storage section drops in for a PCS only, in order', () => {
    const storage: ControlSection = { key: 'storage', appliesTo: (d) => d.type === 'pcs', render: () => <p>储能运行控制</p> };
    const other: ControlSection = { key: 'pile', appliesTo: (d) => d.type === 'chargingPile', render: () => <p>充电桩控制</p> };
    const fixed: ControlSection = { key: 'fixed', appliesTo: () => true, render: () => <p>固定区</p> };
    const sections = [storage, fixed, other];
    const { unmount } = render(<DeviceControls device={device('pcs')} properties={[]} sections={sections} />);
    const area = screen.getByTestId('device-controls');
    expect([...area.querySelectorAll('[data-section]')].map((e) => e.getAttribute('data-section'))).toEqual(['storage', 'fixed']);
    expect(screen.getByText('储能运行控制')).toBeTruthy();
    expect(screen.queryByText('充电桩控制')).toBeNull();
    unmount();
    // A device no section serves has no controls area at all.
    render(<DeviceControls device={device('meter')} properties={[]} sections={[storage, other]} />);
    expect(screen.queryByTestId('device-controls')).toBeNull();
  });
});
