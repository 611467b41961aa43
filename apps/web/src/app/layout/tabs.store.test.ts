import { beforeEach, describe, expect, it } from 'vitest';
import { clearTabs, closeTabs, openTab, refreshTab, useTabsStore } from './tabs.store.ts';

const keys = () => useTabsStore.getState().tabs.map((t) => t.key);

beforeEach(() => {
  useTabsStore.setState({ tabs: [], refreshSeq: {} });
  for (const p of ['/a', '/b', '/c', '/d']) openTab({ key: p, path: p });
});

describe('tab strip actions (§2)', () => {
  it('opens each path once and updates its query in place', () => {
    openTab({ key: '/b?x=1', path: '/b' });
    expect(keys()).toEqual(['/a', '/b?x=1', '/c', '/d']);
  });

  it('close current moves to the right neighbour, or the left one at the end', () => {
    expect(closeTabs('current', '/b', '/b')?.key).toBe('/c');
    expect(keys()).toEqual(['/a', '/c', '/d']);
    expect(closeTabs('current', '/d', '/d')?.key).toBe('/c');
    expect(closeTabs('current', '/a', '/c')?.key).toBe('/c');
    expect(keys()).toEqual(['/c']);
  });

  it('close others, left, right and all', () => {
    expect(closeTabs('left', '/c', '/a')?.key).toBe('/c');
    expect(keys()).toEqual(['/c', '/d']);
    expect(closeTabs('right', '/c', '/d')?.key).toBe('/c');
    expect(keys()).toEqual(['/c']);
    openTab({ key: '/e', path: '/e' });
    expect(closeTabs('others', '/e', '/c')?.key).toBe('/e');
    expect(keys()).toEqual(['/e']);
    expect(closeTabs('all', '/e', '/e')).toBeUndefined();
    expect(keys()).toEqual([]);
  });

  it('refresh bumps the remount counter of one tab', () => {
    refreshTab('/b');
    refreshTab('/b');
    expect(useTabsStore.getState().refreshSeq).toEqual({ '/b': 2 });
  });

  it('keeps the open tabs in session storage and clears them on request', () => {
    expect(JSON.parse(sessionStorage.getItem('ess-tabs')!)).toMatchObject({ state: { tabs: [{ key: '/a' }, { key: '/b' }, { key: '/c' }, { key: '/d' }] } });
    clearTabs();
    expect(keys()).toEqual([]);
    expect(JSON.parse(sessionStorage.getItem('ess-tabs')!)).toMatchObject({ state: { tabs: [] } });
  });
});
