import { declareEvents } from '../../platform/events/catalogue.ts';
import { defineModule } from '../../platform/module.ts';
import './statement.events.ts';
import { registerStatementJobs, statementPriceSubscriber } from './statement.jobs.ts';
import { statementNotifySubscriber } from './statement.notify.ts';
import { statementRoutes } from './statement.routes.ts';

/**
 * Statements (api-catalogue "Statements"; issue 18 items 5–10): site settlement settings, monthly
 * statements settled from the normalised readings and the prices of each day, their lifecycle
 * and journal, downloads (xlsx, PDF), what-if, drafts after each billing day.
 */
export const statementModule = defineModule({
  name: 'statement',
  events: declareEvents('statement.generated', 'statement.investorConfirmed', 'statement.powerUserConfirmed', 'statement.locked', 'statement.disputed'),
  routes: statementRoutes,
  jobs: registerStatementJobs,
  subscribers: [statementNotifySubscriber, statementPriceSubscriber],
});

export { generateDue as generateDueStatements } from './statement.jobs.ts';

/** The statements demo (settings, four months in every state), written once after the demo's history. */
export { seedStatementDemo } from './statement.demo.ts';

/** Exact decimal arithmetic (money without binary floating point), for the modules that bill beside statements (demand charges). */
export { add, dec, fixed, mul, round, sub } from './decimal.ts';

/** The statement list (the report centre's statement summary) and a PDF document in a language's font. */
export { statementPageOf } from './statement.service.ts';
export { openPdf } from './statement.download.ts';
