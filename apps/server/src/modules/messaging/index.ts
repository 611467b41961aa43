import { defineModule } from '../../platform/module.ts';
import { mailRoutes } from './mail.routes.ts';
import { attemptMail, MAIL_SEND_JOB, pruneMailLog, sendDueMail } from './mail.send.ts';
import { seedMessagingDemo } from './message.demo.ts';
import { startSecrets } from './message.context.ts';
import { registerSmsJobs } from './sms.jobs.ts';
import { smsRoutes } from './sms.routes.ts';
import { seedSmsDemo } from './sms.demo.ts';

/**
 * Messaging (issue 20; decision 0043): mail accounts, templates and log (mail.*.ts); SMS
 * channels, templates and log with the provider adapters (sms.*.ts, sms-providers/); message
 * rules with their delivery engine come beside them. Secrets are sealed at rest (platform/secrets.ts).
 */
const SWEEP_MS = 60_000;
const PRUNE_MS = 6 * 3_600_000;

export const messagingModule = defineModule({
  name: 'messaging',
  routes: [...mailRoutes, ...smsRoutes],
  seeds: [seedMessagingDemo, async (s) => void (await seedSmsDemo(s))],
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
    registerSmsJobs(ctx);
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
/** Queue an SMS (rendered, logged as queued) and its first attempt: for the delivery engine. */
export { enqueueSms, attemptSms, type SmsToQueue } from './sms.send.ts';
/** The SMS demo (a channel to the local SMS catcher, an alarm template), written once. */
export { seedSmsDemo } from './sms.demo.ts';
