import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { count, eq } from 'drizzle-orm';
import { firmwareKey, firmwarePackage } from '../../db/schema/firmware.ts';
import { appUser, company } from '../../db/schema/system.ts';
import type { SeedContext } from '../../platform/module.ts';
import { parsePublicKey } from './signature.ts';

/**
 * The demo's packages (SEED_DEMO, first start: no package yet), in the group company, for the
 * firmware the simulator's devices run (apps/simulator fleet.ts: bms-master 1.9.0, pcs-dsp 2.8.4,
 * ems-controller 3.2.1, hvac 5.0.3): the version they run and a newer one of each, signed with a
 * demo Ed25519 key made here (its public half kept as the group's key, the private half thrown
 * away), so the package list, compliance ("behind") and a rollout have something to show. The
 * files are a small header and random bytes: the simulator's OTA verifies their SHA-256 only.
 */
export const DEMO_FIRMWARE_KEY_NAME = '演示签名公钥（Ed25519）';

interface DemoPackage {
  deviceType: string;
  name: string;
  version: string;
  upgradeFrom: string | null;
  notes: string;
  state?: 'withdrawn';
}

export const DEMO_PACKAGES: readonly DemoPackage[] = [
  { deviceType: 'bms', name: 'bms-master', version: '1.9.0', upgradeFrom: '>=1.5.0 <1.9.0', notes: '均衡策略优化；SOC 估算精度提升' },
  { deviceType: 'bms', name: 'bms-master', version: '2.0.0', upgradeFrom: '>=1.8.0 <2.0.0', notes: '新增簇间环流保护；绝缘检测周期可配置；修复温度采样偶发跳变' },
  { deviceType: 'pcs', name: 'pcs-dsp', version: '2.8.4', upgradeFrom: '>=2.6.0 <2.8.4', notes: '并离网切换时间缩短至 20 ms' },
  { deviceType: 'pcs', name: 'pcs-dsp', version: '2.9.0', upgradeFrom: '>=2.8.0 <2.9.0', notes: '支持一次调频；低电压穿越曲线更新' },
  { deviceType: 'ems', name: 'ems-controller', version: '3.2.1', upgradeFrom: '>=3.0.0 <3.2.1', notes: '策略下发校验摘要' },
  { deviceType: 'ems', name: 'ems-controller', version: '3.3.0', upgradeFrom: '>=3.2.0 <3.3.0', notes: '需量控制响应提速；日志分级上传' },
  { deviceType: 'airConditioner', name: 'hvac', version: '5.1.0-rc.1', upgradeFrom: '>=5.0.0 <5.1.0', notes: '除湿模式（试用版，已撤回）', state: 'withdrawn' },
];

export async function seedFirmwareDemo({ config, db }: SeedContext): Promise<void> {
  if (!config.seedDemo) return;
  const [group] = await db.select({ id: company.id }).from(company).where(eq(company.code, 'GROUP'));
  if (!group) return;
  const [existing] = await db.select({ n: count() }).from(firmwarePackage);
  if ((existing?.n ?? 0) > 0) return;
  const [admin] = await db.select({ id: appUser.id }).from(appUser).where(eq(appUser.username, 'admin'));
  const createdBy = admin?.id ?? null;
  const pair = generateKeyPairSync('ed25519');
  const key = parsePublicKey(String(pair.publicKey.export({ type: 'spki', format: 'pem' })));
  const [k] = await db
    .insert(firmwareKey)
    .values({ companyId: group.id, name: DEMO_FIRMWARE_KEY_NAME, algorithm: key.algorithm, publicKeyPem: key.pem, fingerprint: key.fingerprint, remark: '演示数据：私钥已丢弃', createdBy })
    .onConflictDoNothing()
    .returning({ id: firmwareKey.id });
  const dir = join(config.dataDir, 'firmware');
  await mkdir(dir, { recursive: true });
  for (const p of DEMO_PACKAGES) {
    const file = Buffer.concat([Buffer.from(`ESS-FW\0${p.name}\0${p.version}\0`), randomBytes(64 * 1024)]);
    const storageKey = `${randomBytes(16).toString('base64url')}.bin`;
    await writeFile(join(dir, storageKey), file);
    await db.insert(firmwarePackage).values({
      companyId: group.id, deviceType: p.deviceType, productId: null, name: p.name, version: p.version, upgradeFrom: p.upgradeFrom, releaseNotes: p.notes,
      fileName: `${p.name}-${p.version}.bin`, storageKey, size: file.length, sha256: createHash('sha256').update(file).digest('hex'),
      signature: k ? sign(null, file, pair.privateKey).toString('base64') : null, signatureAlgorithm: k ? 'ed25519' : null, keyId: k?.id ?? null,
      state: p.state ?? 'released', createdBy,
    });
  }
}
