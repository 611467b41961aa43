/**
 * A dispatcher in a process of its own (the outbox test kills it with SIGKILL mid-way): delivers
 * the test events of the PostgreSQL database named by argv[2] slowly, printing each batch.
 */
import { openDatabase } from '../src/platform/db/database.ts';
import { createLogger } from '../src/platform/logging.ts';
import { dispatcher } from './outbox-fixtures.ts';

const database = await openDatabase({ url: process.argv[2], dataDir: '' });
const outbox = dispatcher(database, createLogger('silent'), { pauseMs: 30, onBatch: (n) => process.stdout.write(`batch ${n}\n`) });
setInterval(() => outbox.nudge(), 50);
