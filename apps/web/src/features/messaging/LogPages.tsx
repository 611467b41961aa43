import { ResourceTable } from '../../components/crud/index.ts';
import { mailLogResource, smsLogResource } from './log.resource.tsx';

/** /mail/mail-log: the mail log, filtered by state, recipient, time and template; a row's detail shows what was sent. */
export function MailLogPage() {
  return <ResourceTable def={mailLogResource} />;
}

/** /sms/sms-log: the SMS log. */
export function SmsLogPage() {
  return <ResourceTable def={smsLogResource} />;
}
