import { basicEndpoints as api } from '@ess/contract';
import { AppError } from '../../platform/http/errors.ts';
import { route } from '../../platform/http/route.ts';
import { logAccess } from '../../platform/http/server.ts';

export const sseRoutes = [
  route(api.events, {
    access: 'user', name: '实时事件连接', area: 'System administration', kind: 'stream',
    scope: { global: "the caller's own live event stream" },
    // The route wrapper has already refused a missing or dead token with the 401 envelope.
    handler: ({ ctx, user, req, reply }) => {
      // The instance's stream cap keeps descriptors for API calls and sign-ins: refused with 503
      // (not an event stream, so the console does not retry it at once).
      if (!ctx.sse.hasRoom()) throw new AppError('UNAVAILABLE', '实时连接数已达上限，请稍后再试');
      // Logged at open: a stream's reply only "finishes" when the server ends it.
      logAccess(ctx, req, 200, reply.elapsedTime);
      reply.hijack();
      ctx.sse.open(user.id, user.sessionId, reply.raw);
      return Promise.resolve(reply);
    },
  }),
];
