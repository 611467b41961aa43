import { declareEvents } from '../../platform/events/catalogue.ts';
import { defineModule } from '../../platform/module.ts';
import './firmware.events.ts';
import { seedFirmwareDemo } from './firmware.demo.ts';
import { firmwareRoutes } from './firmware.routes.ts';
import { firmwareHttp, firmwareJobs, firmwareStart, firmwareStop } from './firmware.runtime.ts';
import { sweepUploads } from './package.upload.ts';
import { rolloutRoutes } from './rollout.routes.ts';

/**
 * Firmware (issue 22; decision 0047; contract packages/contract/src/firmware.ts): upgrade
 * packages (chunked resumable upload, SHA-256 on the server, semver, signatures verified against
 * the companies' public keys, size limit and unsigned policy from the settings, delete guard),
 * the device download by short-lived token (HTTP Range), and the compliance view; rollouts in
 * groups with the safe gate, per-device tasks driven by the devices' MQTT reports (the engine:
 * task.engine.ts), and log captures.
 */
export const firmwareModule = defineModule({
  name: 'firmware',
  events: declareEvents('firmware.packageAdded', 'firmware.rolloutStarted', 'firmware.rolloutPaused', 'firmware.rolloutFinished', 'firmware.taskFinished'),
  routes: [...firmwareRoutes, ...rolloutRoutes],
  // The demo's signed packages for the simulator's firmware (SEED_DEMO, first start).
  seeds: [seedFirmwareDemo],
  jobs: (ctx) => {
    // Hourly: upload sessions untouched for a day lose their bytes.
    ctx.jobs.every(3_600_000, async () => {
      const n = await sweepUploads(ctx);
      if (n) ctx.log.info({ n }, 'expired firmware uploads removed');
    });
    firmwareJobs(ctx);
  },
  start: firmwareStart,
  stop: firmwareStop,
  http: firmwareHttp,
});

export { signDeviceToken, verifyDeviceToken, type DeviceTokenClaims, type LogTokenClaims, type PackageTokenClaims } from './device-token.ts';
export { firmwareSettings, firmwareDir, firmwareLogDir, type FirmwareSettings } from './setting.service.ts';
/** The demo's rollouts and log capture (once the simulator plays the stations). */
export { playFirmwareDemo } from './rollout.demo.ts';
