import { defineModule } from '../../platform/module.ts';
import { mailRoutes } from './mail.routes.ts';
import { attemptMail, MAIL_SEND_JOB, pruneMailLog, sendDueMail } from './mail.send.ts';
import { seedMessagingDemo } from './message.demo.ts';
import { startSecrets } from './message.context.ts';

/**
 * Messaging (issue 20; decision 0043): mail accounts, templates and log on the server (this
 * branch); SMS channels, templates and log (sms.*.ts) and message rules with their delivery engine
 * come beside them. Secrets are sealed at rest (platform/secrets.ts).
 */
const SWEEP_MS = 60_000;
const PRUNE_MS = 6 * 3_600_000;

export const messagingModule = defineModule({
  name: 'messaging',
  routes: mailRoutes,
  seeds: [seedMessagingDemo],
  jobs: (ctx) => {
    ctx.jobs.handle<{ logId: number }>(MAIL_SEND_JOB, async ({ logId }) => {
      await attemptMail(ctx, logId);
    });
    // Mails whose job went missing (a crash between insert and send) and those due again.
    ctx.jobs.every(SWEEP_MS, async () => {
      await sendDueMail(ctx);
    });
    ctx.jobs.every(PRUNE_MS, async () => {
      await pruneMailLog(ctx);
    });
  },
  start: (ctx) => {
    startSecrets(ctx);
    return Promise.resolve();
  },
});

export { queueMail, attemptMail } from './mail.send.ts';
export { mailVariantFor, renderMail } from './mail.template.service.ts';
export { renderTemplate, variablesOf, smsSegments, htmlToText } from './message.template.ts';
export { secretsOf, previewData, pickVariant, MAIL_PASSWORD, SMS_SECRET } from './message.context.ts';
