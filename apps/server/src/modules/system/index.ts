import { defineModule } from '../../platform/module.ts';
import { authRoutes } from './auth.routes.ts';
import { companyRoutes } from './company.routes.ts';
import { logRoutes } from './log.routes.ts';
import { menuRoutes } from './menu.routes.ts';
import { deadLetterNoticeSubscriber } from './notification.dead-letter.ts';
import { registerNotificationJobs } from './notification.jobs.ts';
import { notificationRoutes } from './notification.routes.ts';
import { roleRoutes } from './role.routes.ts';
import { userRoutes } from './user.routes.ts';

/**
 * Sign-in, profile, companies, menus, interfaces, roles, users, logs, notifications (also the
 * administrators' notice of dead domain-event deliveries).
 */
export const systemModule = defineModule({
  name: 'system',
  routes: [...authRoutes, ...companyRoutes, ...menuRoutes, ...roleRoutes, ...userRoutes, ...logRoutes, ...notificationRoutes],
  jobs: registerNotificationJobs,
  subscribers: [deadLetterNoticeSubscriber],
});

/** Notifications for other modules: write them in a transaction, deliver them after. */
export { deliver, noticeLanguageOf, notifyUsers, type Delivery } from './notification.service.ts';
export { serviceUser } from './service-user.ts';
