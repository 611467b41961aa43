import { declareEvents } from '../../platform/events/catalogue.ts';
import { defineModule } from '../../platform/module.ts';
import './delivery.events.ts';
import { deliverySubscriber } from './delivery.plan.ts';
import { registerDeliveryJobs } from './delivery.send.ts';
import { mailRoutes } from './mail.routes.ts';
import { attemptMail, MAIL_SEND_JOB, pruneMailLog, sendDueMail } from './mail.send.ts';
import { seedMessagingDemo } from './message.demo.ts';
import { startSecrets } from './message.context.ts';
import { seedMessageRulesDemo } from './message.rule.demo.ts';
import { messageRuleRoutes } from './message.rule.routes.ts';
import { registerSmsJobs } from './sms.jobs.ts';
import { smsRoutes } from './sms.routes.ts';
import { seedSmsDemo } from './sms.demo.ts';

/**
 * Messaging (issue 20; decisions 0043, 0046): mail accounts, templates and log; SMS channels,
 * templates and log with the provider adapters (sms-providers/); message rules and the delivery
 * engine (a subscriber of the domain-event outbox that plans messages into the delivery ledger,
 * and the jobs that send them). Secrets are sealed at rest (platform/secrets.ts).
 */
const SWEEP_MS = 60_000;
const PRUNE_MS = 6 * 3_600_000;

export const messagingModule = defineModule({
  name: 'messaging',
  events: declareEvents('alarm.unacknowledged', 'device.offlineFor', 'workorder.overdue'),
  routes: [...mailRoutes, ...smsRoutes, ...messageRuleRoutes],
  /** The rules' demo after the mail and SMS demos' accounts, channels and templates, which its rules name. */
  seeds: [seedMessagingDemo, async (s) => void (await seedSmsDemo(s)), seedMessageRulesDemo],
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
    registerDeliveryJobs(ctx);
  },
  subscribers: [deliverySubscriber],
  start: (ctx) => {
    startSecrets(ctx);
    return Promise.resolve();
  },
});

export { processDue } from './delivery.send.ts';
export { queueMail, attemptMail, insertMail, mailSoon } from './mail.send.ts';
export { mailVariantFor, renderMail } from './mail.template.service.ts';
export { renderTemplate, variablesOf, smsSegments, htmlToText } from './message.template.ts';
export { secretsOf, previewData, pickVariant, MAIL_PASSWORD, SMS_SECRET } from './message.context.ts';
/** Queue an SMS (rendered, logged as queued) and its first attempt: for the delivery engine. */
export { enqueueSms, attemptSms, type SmsToQueue } from './sms.send.ts';
/** The SMS demo (a channel to the local SMS catcher, an alarm template), written once. */
export { seedSmsDemo } from './sms.demo.ts';
