import { mailAccountBody, mailAccountResource, mailAccountValues } from './mail-account.resource.tsx';
import { SenderPage } from './SenderPage.tsx';

/** /mail/mail-account: SMTP accounts, with test connection, test mail and enable/disable. */
export function MailAccountPage() {
  return <SenderPage kind="mail" def={mailAccountResource} toggleBody={(r, enabled) => mailAccountBody({ ...mailAccountValues(r), enabled }, 'edit', r.id)} />;
}
