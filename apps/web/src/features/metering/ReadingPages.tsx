import { ResourceTable } from '../../components/crud/index.ts';
import { timingResource, zeroResource } from './readings.resource.tsx';

/** /meter/time: the midnight readings of every meter, with their quality. */
export function ZeroDataPage() {
  return <ResourceTable def={zeroResource} />;
}

/** /meter/reading: the timing readings (month end 24:00 and the other configured times). */
export function TimingReadingPage() {
  return <ResourceTable def={timingResource} />;
}
