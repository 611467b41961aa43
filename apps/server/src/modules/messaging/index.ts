import { defineModule } from '../../platform/module.ts';
import './delivery.events.ts';
import { deliverySubscriber } from './delivery.plan.ts';
import { registerDeliveryJobs } from './delivery.send.ts';
import { startSecrets } from './message.context.ts';
import { seedMessageRulesDemo } from './message.rule.demo.ts';
import { messageRuleRoutes } from './message.rule.routes.ts';

/**
 * Messaging (issue 20; decisions 0043, 0046): mail accounts, templates and log; SMS channels,
 * templates and log; message rules and the delivery engine (a subscriber of the domain-event
 * outbox that plans messages into the delivery ledger, and the jobs that send them).
 */
export const messagingModule = defineModule({
  name: 'messaging',
  routes: [...messageRuleRoutes],
  /** After the mail demo's account and templates (m20mail's seed goes first when merged). */
  seeds: [seedMessageRulesDemo],
  jobs: registerDeliveryJobs,
  subscribers: [deliverySubscriber],
  start: (ctx) => {
    startSecrets(ctx);
    return Promise.resolve();
  },
});

export { processDue } from './delivery.send.ts';
