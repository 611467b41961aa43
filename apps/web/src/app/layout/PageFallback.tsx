import { Spin } from 'antd';

/** Shown while a page's chunk or the first navigation loads. */
export function PageFallback() {
  return (
    <div style={{ display: 'flex', justifyContent: 'center', alignItems: 'center', minHeight: 240 }}>
      <Spin />
    </div>
  );
}
