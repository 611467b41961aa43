import { z } from 'zod';

/** Live events sent on GET /basic/sse/connect, typed once for server and console. */
export const liveEventSchemas = {
  heartbeat: z.object({ time: z.number() }),
  /**
   * The server's last event on a stream it ends: `superseded` when the session or user opened
   * more streams than allowed and this one was the oldest. The console does not reconnect that
   * stream on its own (only when its tab becomes visible again), so tabs do not take turns
   * closing each other. Not broadcast to other tabs.
   */
  close: z.object({ reason: z.enum(['superseded']) }),
  Unread: z.object({ count: z.number().int().nonnegative() }),
  PopupWindow: z.object({
    id: z.number().int(),
    title: z.string(),
    content: z.string(),
    createdAt: z.string(),
    /**
     * What pops up: a pushed notification (the default; title and content as written) or a newly
     * opened alarm (title a level label in source text, content station · device: description (number)).
     */
    kind: z.enum(['notification', 'alarm']).optional(),
  }),
  RefreshAlarmKanban: z.object({ siteId: z.number().int().optional() }),
  /** Firmware (issue 22): a rollout's tasks or a log capture's devices changed; the console reloads what it shows of it. */
  FirmwareProgress: z.object({ rolloutId: z.number().int().optional(), captureId: z.number().int().optional() }),
} as const;

export type LiveEventName = keyof typeof liveEventSchemas;
export type LiveEventData<N extends LiveEventName> = z.infer<(typeof liveEventSchemas)[N]>;
export const LIVE_EVENT_NAMES = Object.keys(liveEventSchemas) as LiveEventName[];
