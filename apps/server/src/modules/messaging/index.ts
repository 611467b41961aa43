import { defineModule } from '../../platform/module.ts';
import { registerSmsJobs } from './sms.jobs.ts';
import { smsRoutes } from './sms.routes.ts';

/**
 * Messaging (issue 20; decision 0043): mail accounts, templates and log; SMS channels, templates
 * and log with the provider adapters (sms-providers/); message configuration rules.
 */
export const messagingModule = defineModule({
  name: 'messaging',
  routes: [...smsRoutes],
  jobs: (ctx) => {
    registerSmsJobs(ctx);
  },
});

/** Queue an SMS (rendered, logged as queued) and its first attempt: for the delivery engine. */
export { enqueueSms, attemptSms, type SmsToQueue } from './sms.send.ts';
/** The SMS demo (a channel to the local SMS catcher, an alarm template), written once. */
export { seedSmsDemo } from './sms.demo.ts';
