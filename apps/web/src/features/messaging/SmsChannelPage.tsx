import { SenderPage } from './SenderPage.tsx';
import { smsChannelBody, smsChannelResource, smsChannelValues } from './sms-channel.resource.tsx';

/** /sms/sms-channel: SMS provider accounts, with test send and enable/disable. */
export function SmsChannelPage() {
  return <SenderPage kind="sms" def={smsChannelResource} toggleBody={(r, enabled) => smsChannelBody({ ...smsChannelValues(r), enabled }, 'edit', r.id)} />;
}
