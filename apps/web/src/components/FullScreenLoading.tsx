import { LOADING_SPINNER_SIZE } from '@ess/contract/constants';
import { LoadingOutlined } from '@ant-design/icons';
import { Spin } from 'antd';
import { useLoadingStore } from '../platform/feedback/loading.ts';

/** The full-screen spinner of product-spec §4 (text "Loading...", size 32), driven by the request layer. */
export function FullScreenLoading() {
  const visible = useLoadingStore((s) => s.visible);
  if (!visible) return null;
  return (
    <Spin
      fullscreen
      spinning
      tip="Loading..."
      data-testid="full-screen-loading"
      indicator={<LoadingOutlined style={{ fontSize: LOADING_SPINNER_SIZE }} spin />}
    />
  );
}
