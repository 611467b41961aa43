/** Types of scripts/hook-catcher.mjs (imported by the station simulator, which hosts the demo's receiver). */
export declare const DEMO_SECRET: string;
export declare const DEMO_CATCHER_PORT: number;
export interface CaughtRequest {
  at: string;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  signature: string;
}
export interface HookCatcher {
  url: string;
  requests: CaughtRequest[];
  close(): Promise<void>;
}
export declare function verify(headers: Record<string, string | string[] | undefined>, body: Buffer, whsec: string, now?: number): string;
export declare function startHookCatcher(opts?: { port?: number; host?: string; secret?: string; status?: number; quiet?: boolean; log?: (line: string) => void }): Promise<HookCatcher>;
