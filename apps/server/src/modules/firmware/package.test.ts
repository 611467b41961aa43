import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { existsSync, readdirSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRMWARE_ERRORS, UPGRADE_FROM_INVALID, type FirmwarePackageRecord, type FirmwareUploadStatus } from '@ess/contract/firmware';
import { product } from '../../db/schema/device.ts';
import { firmwarePackage, firmwareRollout, firmwareRolloutGroup, firmwareTask } from '../../db/schema/firmware.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { eventually, newDevice, newSite, newUser, okData, seededCompanies } from '../../../test/factory.ts';
import type { AppError } from '../../platform/http/errors.ts';
import { signDeviceToken } from './device-token.ts';
import { withLockFile } from './package.upload.ts';

/**
 * The package side of firmware (decision 0047) over real HTTP: the chunked upload with a broken
 * connection and its resumption, the SHA-256 the server computes, semver, the product's device
 * type, the size limit, signatures (Ed25519, ECDSA P-256 in DER and P1363 form, a bad one, a
 * foreign company's key, the unsigned policy), the delete guard, the refusals (signed out, no
 * permission, another company), and the device's download by token with HTTP Range.
 */
const KB = 1024;

describe.each(dbTargets(import.meta.url))('firmware packages on %s', (target) => {
  let t: TestApp;
  let eastId: number;
  let southId: number;
  let east: string;
  let south: string;
  let narrow: string;
  let bmsProductId: number;
  let pcsProductId: number;

  const start = (token: string | null, body: Record<string, unknown>) => t.api.post<FirmwareUploadStatus>('/firmware/package/upload/start', token, body);
  const chunk = (token: string | null, uploadId: string, offset: number, bytes: Buffer) => {
    const f = new FormData();
    f.append('file', new Blob([bytes]), 'chunk.bin');
    return t.api.call<FirmwareUploadStatus>('POST', '/firmware/package/upload/chunk', { token, query: { uploadId, offset }, rawBody: f });
  };
  const status = (token: string, uploadId: string) => t.api.post<FirmwareUploadStatus>('/firmware/package/upload/query/one', token, { uploadId });
  const finish = (token: string, uploadId: string) => t.api.post<{ id: number }>('/firmware/package/upload/finish', token, { uploadId });
  const meta = (o: Record<string, unknown> = {}) => ({ companyId: eastId, deviceType: 'bms', name: `fw-${randomBytes(3).toString('hex')}`, version: '1.2.0', fileName: 'bms.bin', ...o });
  const packageCount = async () => (await t.ctx.db.select({ n: count() }).from(firmwarePackage))[0]!.n;
  const uploadsOnDisk = () => {
    const dir = join(t.ctx.config.dataDir, 'firmware');
    return existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith('.upload-')) : [];
  };

  /** Uploads the whole file in chunks and finishes; answers finish's response. */
  async function upload(data: Buffer, o: Record<string, unknown> = {}, token = east, chunkSize = 64 * KB) {
    const s = await okData(start(token, { ...meta(o), size: data.length }));
    for (let off = 0; off < data.length; off += chunkSize) await okData(chunk(token, s.uploadId, off, data.subarray(off, off + chunkSize)));
    return { uploadId: s.uploadId, res: await finish(token, s.uploadId) };
  }

  beforeAll(async () => {
    t = await startTestApp(target);
    const c = await seededCompanies(t);
    eastId = c.east.id;
    southId = c.south.id;
    east = (await newUser(t, eastId, { menus: ['/firmware/firmware', '/firmware/upgrade'] })).token;
    south = (await newUser(t, southId, { menus: ['/firmware/firmware', '/firmware/upgrade'] })).token;
    narrow = (await newUser(t, eastId, { menus: ['/home/index'] })).token;
    bmsProductId = (await t.ctx.db.select({ id: product.id }).from(product).where(eq(product.type, 'bms')).limit(1))[0]!.id;
    pcsProductId = (await t.ctx.db.select({ id: product.id }).from(product).where(eq(product.type, 'pcs')).limit(1))[0]!.id;
  });
  afterAll(async () => t?.stop());

  it('uploads in chunks, keeps what a broken connection delivered, resumes from there and computes the SHA-256', async () => {
    const data = randomBytes(1024 * KB);
    const sha256 = createHash('sha256').update(data).digest('hex');
    const s = await okData(start(east, { ...meta({ productId: bmsProductId, upgradeFrom: '>=1.0.0 <1.2.0', releaseNotes: '修复 SOC 估算' }), size: data.length, sha256 }));
    expect(s).toMatchObject({ state: 'uploading', size: data.length, received: 0 });
    expect((await okData(chunk(east, s.uploadId, 0, data.subarray(0, 256 * KB)))).received).toBe(256 * KB);

    // A chunk of 256 KB whose connection breaks after 100 KB.
    await new Promise<void>((resolve) => {
      const boundary = '----fwtest';
      const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="c.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      const url = new URL(`/api/manager/firmware/package/upload/chunk?uploadId=${s.uploadId}&offset=${256 * KB}`, t.url);
      const req = request(url, {
        method: 'POST',
        headers: { authorization: east, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(head.length + 256 * KB + tail.length) },
      });
      req.on('error', () => resolve());
      req.write(head);
      req.write(data.subarray(256 * KB, 356 * KB), () => setTimeout(() => {
        req.destroy();
        resolve();
      }, 300));
    });
    const after = await eventually(async () => {
      const r = (await okData(status(east, s.uploadId))).received;
      return r > 256 * KB ? r : undefined;
    });
    expect(after).toBeLessThanOrEqual(356 * KB);

    // Sending past what the server holds is refused, naming where to resume.
    const ahead = await chunk(east, s.uploadId, 800 * KB, data.subarray(800 * KB));
    expect(ahead.status).toBe(406);
    expect(ahead.body.tipMsg).toBe(FIRMWARE_ERRORS.uploadOffset(after));

    // The whole chunk sent again (it overlaps what arrived): taken from the server's offset on.
    expect((await okData(chunk(east, s.uploadId, 256 * KB, data.subarray(256 * KB, 512 * KB)))).received).toBe(512 * KB);
    expect((await okData(chunk(east, s.uploadId, 512 * KB, data.subarray(512 * KB)))).received).toBe(data.length);
    // More than the declared size is refused and changes nothing.
    const beyond = await chunk(east, s.uploadId, data.length, Buffer.from('extra'));
    expect([beyond.status, beyond.body.tipMsg]).toEqual([406, FIRMWARE_ERRORS.uploadBeyondSize]);
    expect((await okData(status(east, s.uploadId))).received).toBe(data.length);

    const { id } = await okData(finish(east, s.uploadId));
    const p = await okData(t.api.post<FirmwarePackageRecord>('/firmware/package/query/one', east, { id }));
    expect(p).toMatchObject({ sha256, size: data.length, version: '1.2.0', upgradeFrom: '>=1.0.0 <1.2.0', releaseNotes: '修复 SOC 估算', signed: false, state: 'released', productId: bmsProductId });
    expect((await okData(status(east, s.uploadId))).state).toBe('finished');
    const file = await t.api.get(`/firmware/package/download`, east, { id });
    expect(file.status).toBe(200);
    expect(file.raw.equals(data)).toBe(true);
    expect(uploadsOnDisk()).toEqual([]);
    // A finished session takes no more chunks.
    expect((await chunk(east, s.uploadId, 0, data.subarray(0, 10))).status).toBe(404);
  });

  it('refuses a SHA-256 that differs from the declared one and keeps nothing', async () => {
    const before = await packageCount();
    const data = randomBytes(100 * KB);
    const { uploadId, res } = await upload(data, { sha256: 'ab'.repeat(32) });
    expect([res.status, res.body.tipMsg]).toEqual([406, FIRMWARE_ERRORS.sha256Mismatch]);
    expect(await packageCount()).toBe(before);
    expect(uploadsOnDisk()).toEqual([]);
    expect((await okData(status(east, uploadId))).state).toBe('aborted');
    // A finish before every byte arrived is refused, naming what is there.
    const s = await okData(start(east, { ...meta(), size: 10 * KB }));
    await okData(chunk(east, s.uploadId, 0, randomBytes(KB)));
    const early = await finish(east, s.uploadId);
    expect([early.status, early.body.tipMsg]).toEqual([406, FIRMWARE_ERRORS.uploadIncomplete(KB, 10 * KB)]);
    // Abandoned: its bytes go, and it takes nothing more.
    expect(uploadsOnDisk()).toEqual([`.upload-${s.uploadId}`]);
    await okData(t.api.post('/firmware/package/upload/abort', east, { uploadId: s.uploadId }));
    expect(uploadsOnDisk()).toEqual([]);
    expect((await chunk(east, s.uploadId, KB, randomBytes(KB))).status).toBe(404);
  });

  it('writes two chunks of one upload sent at once one after the other (the lock per upload): the file is never corrupted', async () => {
    const data = randomBytes(1024 * KB);
    const sha256 = createHash('sha256').update(data).digest('hex');
    const s = await okData(start(east, { ...meta(), size: data.length, sha256 }));
    // The same chunk twice and an overlapping longer one, all at once: each is cut to what the others left.
    const sent = await Promise.all([chunk(east, s.uploadId, 0, data.subarray(0, 512 * KB)), chunk(east, s.uploadId, 0, data.subarray(0, 512 * KB)), chunk(east, s.uploadId, 0, data.subarray(0, 768 * KB))]);
    for (const r of sent) expect(r.body.errorCode, r.body.tipMsg).toBe('00000');
    expect((await okData(status(east, s.uploadId))).received).toBe(768 * KB);
    // Another instance sharing DATA_DIR writes this upload (its lock file): a chunk here waits for it.
    const lock = join(t.ctx.config.dataDir, 'firmware', `.lock-${s.uploadId}`);
    writeFileSync(lock, '');
    let done = false;
    const waiting = chunk(east, s.uploadId, 768 * KB, data.subarray(768 * KB)).then((r) => {
      done = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 600));
    expect(done).toBe(false);
    expect((await okData(status(east, s.uploadId))).received).toBe(768 * KB);
    unlinkSync(lock);
    expect((await okData(waiting)).received).toBe(data.length);
    const { id } = await okData(finish(east, s.uploadId));
    expect((await t.api.get('/firmware/package/download', east, { id })).raw.equals(data)).toBe(true);
    expect(existsSync(lock)).toBe(false);
  });

  it('takes over a lock left by a dead instance; a lock held past the wait answers busy (406)', async () => {
    const s = await okData(start(east, { ...meta(), size: 4 * KB }));
    const lock = join(t.ctx.config.dataDir, 'firmware', `.lock-${s.uploadId}`);
    writeFileSync(lock, '');
    const old = new Date(Date.now() - 120_000);
    utimesSync(lock, old, old);
    expect((await okData(chunk(east, s.uploadId, 0, randomBytes(4 * KB)))).received).toBe(4 * KB);
    writeFileSync(lock, '');
    const busy = await withLockFile(lock, () => Promise.resolve(1), 200).catch((e: unknown) => e as AppError);
    expect(busy).toMatchObject({ status: 406, tip: FIRMWARE_ERRORS.uploadBusy });
    unlinkSync(lock);
    await okData(t.api.post('/firmware/package/upload/abort', east, { uploadId: s.uploadId }));
  });

  it('refuses a version that is not semver, a bad range, a product of another type, a duplicate and a file beyond the limit, before any byte', async () => {
    const bad = async (body: Record<string, unknown>) => {
      const r = await start(east, { ...meta(), size: 1000, ...body });
      return [r.status, r.body.tipMsg];
    };
    expect(await bad({ version: '1.2' })).toEqual([400, expect.stringContaining('语义化版本')]);
    expect(await bad({ version: 'v1.2.3' })).toEqual([400, expect.stringContaining('语义化版本')]);
    expect(await bad({ upgradeFrom: 'not a range' })).toEqual([400, UPGRADE_FROM_INVALID]);
    expect(await bad({ upgradeFrom: '>=2.0.0', version: '1.5.0' })).toEqual([400, FIRMWARE_ERRORS.versionNotNewer]);
    expect(await bad({ productId: pcsProductId })).toEqual([406, FIRMWARE_ERRORS.productTypeMismatch]);
    expect(await bad({ size: 2 * 1024 * 1024 * 1024 })).toEqual([413, FIRMWARE_ERRORS.tooLarge(256)]);
    const name = `dup-${randomBytes(3).toString('hex')}`;
    expect((await upload(randomBytes(KB), { name, version: '3.0.0' })).res.status).toBe(200);
    expect(await bad({ name, version: '3.0.0' })).toEqual([406, FIRMWARE_ERRORS.duplicateVersion]);
    // Semver compares properly: 3.0.0-rc.1 is another version of the same name.
    expect((await upload(randomBytes(KB), { name, version: '3.0.0-rc.1' })).res.status).toBe(200);
    expect(uploadsOnDisk()).toEqual([]);
  });

  describe('signatures', () => {
    let ed: { privateKey: KeyObject; publicKey: KeyObject };
    let ec: { privateKey: KeyObject; publicKey: KeyObject };
    let southKey: { privateKey: KeyObject; publicKey: KeyObject };
    const pem = (k: KeyObject) => String(k.export({ type: 'spki', format: 'pem' }));

    beforeAll(async () => {
      ed = generateKeyPairSync('ed25519');
      ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
      southKey = generateKeyPairSync('ed25519');
      await okData(t.api.post('/firmware/key/add', east, { companyId: eastId, name: 'east ed25519', publicKeyPem: pem(ed.publicKey) }));
      await okData(t.api.post('/firmware/key/add', east, { companyId: eastId, name: 'east p256', publicKeyPem: pem(ec.publicKey) }));
      await okData(t.api.post('/firmware/key/add', south, { companyId: southId, name: 'south', publicKeyPem: pem(southKey.publicKey) }));
    });

    it('keeps Ed25519 and P-256 keys, refusing other keys, private keys and duplicates', async () => {
      const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 });
      const k384 = generateKeyPairSync('ec', { namedCurve: 'secp384r1' });
      for (const publicKeyPem of [pem(rsa.publicKey), pem(k384.publicKey), 'not a key', String(ed.privateKey.export({ type: 'pkcs8', format: 'pem' }))]) {
        const r = await t.api.post('/firmware/key/add', east, { companyId: eastId, name: 'bad', publicKeyPem });
        expect([r.status, r.body.tipMsg]).toEqual([400, FIRMWARE_ERRORS.keyInvalid]);
      }
      const dup = await t.api.post('/firmware/key/add', east, { companyId: eastId, name: 'again', publicKeyPem: pem(ed.publicKey) });
      expect([dup.status, dup.body.tipMsg]).toEqual([406, FIRMWARE_ERRORS.keyDuplicate]);
      const page = await okData(t.api.post<{ records: { name: string; algorithm: string; companyId: number }[] }>('/firmware/key/query/page', east, {}));
      expect(page.records.map((k) => [k.name, k.algorithm]).sort()).toEqual([['east ed25519', 'ed25519'], ['east p256', 'ecdsaP256']]);
      expect((await t.api.post('/firmware/key/add', south, { companyId: eastId, name: 'x', publicKeyPem: pem(southKey.publicKey) })).status).toBe(403);
    });

    it('accepts a good Ed25519 and P-256 signature (DER and P1363) and records the key', async () => {
      const data = randomBytes(200 * KB);
      const cases: [string, Buffer][] = [
        ['ed25519', sign(null, data, ed.privateKey)],
        ['ecdsaP256', sign('sha256', data, ec.privateKey)],
        ['ecdsaP256', sign('sha256', data, { key: ec.privateKey, dsaEncoding: 'ieee-p1363' })],
      ];
      for (const [alg, sig] of cases) {
        const { res } = await upload(data, { signature: sig.toString('base64') });
        const p = await okData(t.api.post<FirmwarePackageRecord>('/firmware/package/query/one', east, { id: okDataSync(res).id }));
        expect([p.signed, p.signatureAlgorithm, p.keyName]).toEqual([true, alg, alg === 'ed25519' ? 'east ed25519' : 'east p256']);
      }
    });

    it('refuses a signature that does not verify (other bytes, another company’s key) and keeps nothing', async () => {
      const before = await packageCount();
      const data = randomBytes(50 * KB);
      for (const sig of [sign(null, randomBytes(10), ed.privateKey), sign(null, data, southKey.privateKey), sign('sha256', Buffer.concat([data, Buffer.from('x')]), ec.privateKey)]) {
        const { res } = await upload(data, { signature: sig.toString('base64') });
        expect([res.status, res.body.tipMsg]).toEqual([406, FIRMWARE_ERRORS.signatureInvalid]);
      }
      const garbled = await start(east, { ...meta(), size: 10, signature: '@@not-base64@@' });
      expect(garbled.status).toBe(400);
      expect(await packageCount()).toBe(before);
      expect(uploadsOnDisk()).toEqual([]);
      // A disabled key verifies nothing.
      const keys = await okData(t.api.post<{ records: { id: number; name: string }[] }>('/firmware/key/query/page', east, { name: 'east ed25519' }));
      await okData(t.api.post('/firmware/key/edit', east, { id: keys.records[0]!.id, companyId: eastId, name: 'east ed25519', enabled: false }));
      const off = await upload(data, { signature: sign(null, data, ed.privateKey).toString('base64') });
      expect(off.res.status).toBe(406);
      await okData(t.api.post('/firmware/key/edit', east, { id: keys.records[0]!.id, companyId: eastId, name: 'east ed25519', enabled: true }));
    });

    it('refuses an unsigned package when the settings say so; only an administrator changes them', async () => {
      const settings = await okData(t.api.post<Record<string, unknown>>('/firmware/setting/query/one', east));
      expect(settings).toMatchObject({ maxPackageMb: 256, allowUnsigned: true, tokenTtlMinutes: 30, editable: false });
      const { updatedAt: _u, editable: _e, ...values } = settings;
      const denied = await t.api.post('/firmware/setting/edit', east, { ...values, allowUnsigned: false });
      expect([denied.status, denied.body.tipMsg]).toEqual([403, FIRMWARE_ERRORS.settingsAdminOnly]);
      await okData(t.api.post('/firmware/setting/edit', t.adminToken, { ...values, allowUnsigned: false, maxPackageMb: 1 }));
      const r = await start(east, { ...meta(), size: 10 });
      expect([r.status, r.body.tipMsg]).toEqual([406, FIRMWARE_ERRORS.unsignedRefused]);
      // The limit follows the settings too.
      const big = await start(east, { ...meta(), size: 2 * 1024 * 1024, signature: sign(null, Buffer.from('x'), ed.privateKey).toString('base64') });
      expect([big.status, big.body.tipMsg]).toEqual([413, FIRMWARE_ERRORS.tooLarge(1)]);
      const data = randomBytes(10 * KB);
      expect((await upload(data, { signature: sign(null, data, ed.privateKey).toString('base64') })).res.status).toBe(200);
      await okData(t.api.post('/firmware/setting/edit', t.adminToken, values));
    });
  });

  it('refuses to delete a package a live rollout uses (naming it), and one with history; deletes an unused one with its file', async () => {
    const { res } = await upload(randomBytes(KB));
    const id = okDataSync(res).id;
    const [stored] = await t.ctx.db.select().from(firmwarePackage).where(eq(firmwarePackage.id, id));
    const [r] = await t.ctx.db
      .insert(firmwareRollout)
      .values({
        companyId: eastId, name: '储能BMS灰度升级', packageId: id, state: 'running', successThreshold: 50, errorThreshold: 50,
        target: { packageId: id, siteIds: [], productIds: [], versions: [], deviceIds: [] }, grouping: { canarySize: 1, groupSize: 10, groupPercent: null },
      })
      .returning({ id: firmwareRollout.id });
    const live = await t.api.get('/firmware/package/delete', east, { id });
    expect(live.status).toBe(406);
    expect(live.body.tipMsg).toContain(FIRMWARE_ERRORS.packageInUse('储能BMS灰度升级'));
    await t.ctx.db.update(firmwareRollout).set({ state: 'finished' }).where(eq(firmwareRollout.id, r!.id));
    const history = await t.api.get('/firmware/package/delete', east, { id });
    expect([history.status, history.body.tipMsg]).toEqual([406, expect.stringContaining('可撤回')]);
    expect((await okData(t.api.post<FirmwarePackageRecord>('/firmware/package/query/one', east, { id }))).rolloutCount).toBe(1);
    await t.ctx.db.delete(firmwareRollout).where(eq(firmwareRollout.id, r!.id));
    await okData(t.api.get('/firmware/package/delete', east, { id }));
    expect(existsSync(join(t.ctx.config.dataDir, 'firmware', stored!.storageKey))).toBe(false);
    expect((await t.api.post('/firmware/package/query/one', east, { id })).status).toBe(404);
  });

  it('refuses the signed-out, a role without the firmware pages, and another company’s packages and uploads', async () => {
    const { res } = await upload(randomBytes(KB));
    const id = okDataSync(res).id;
    const s = await okData(start(east, { ...meta(), size: 10 }));
    expect((await start(null, { ...meta(), size: 10 })).status).toBe(401);
    expect((await chunk(null, s.uploadId, 0, Buffer.from('x'))).status).toBe(401);
    expect((await start(narrow, { ...meta(), size: 10 })).status).toBe(403);
    expect((await t.api.post('/firmware/package/query/page', narrow, {})).status).toBe(403);
    expect((await t.api.post('/firmware/compliance/query', narrow, {})).status).toBe(403);
    // South sees none of east's packages, and cannot touch its upload or upload for it.
    expect((await start(south, { ...meta(), size: 10 })).status).toBe(403);
    expect((await t.api.post('/firmware/package/query/one', south, { id })).status).toBe(404);
    expect((await t.api.get('/firmware/package/delete', south, { id })).status).toBe(404);
    expect((await t.api.get('/firmware/package/download', south, { id })).status).toBe(404);
    expect((await chunk(south, s.uploadId, 0, Buffer.from('x'))).status).toBe(404);
    expect((await finish(south, s.uploadId)).status).toBe(404);
    const page = await okData(t.api.post<{ records: { companyId: number }[] }>('/firmware/package/query/page', south, {}));
    expect(page.records.every((p) => p.companyId === southId)).toBe(true);
    const foreignSite = await newSite(t, eastId);
    expect((await t.api.post('/firmware/compliance/query', south, { siteIds: [foreignSite.id] })).status).toBe(403);
    // East's own upload is unaffected.
    expect((await okData(chunk(east, s.uploadId, 0, Buffer.from('0123456789')))).received).toBe(10);
  });

  describe('device download by token', () => {
    let data: Buffer;
    let packageId: number;
    let taskId: number;
    let deviceId: number;
    let otherDeviceId: number;
    const download = (token: string, headers: Record<string, string> = {}) => t.api.call('GET', '/firmware/device/package', { query: { token }, headers });
    const tokenFor = (o: Partial<{ taskId: number; packageId: number; deviceId: number }> = {}, ttlMs = 30 * 60_000) =>
      signDeviceToken(t.ctx.config.secretKey, { kind: 'package', taskId, packageId, deviceId, ...o }, ttlMs);

    beforeAll(async () => {
      data = randomBytes(300 * KB);
      packageId = okDataSync((await upload(data, { version: '4.0.0' })).res).id;
      const s = await newSite(t, eastId);
      deviceId = (await newDevice(t, s.id, { type: 'bms' })).id;
      otherDeviceId = (await newDevice(t, s.id, { type: 'bms' })).id;
      const [r] = await t.ctx.db
        .insert(firmwareRollout)
        .values({
          companyId: eastId, name: 'download test', packageId, state: 'running', successThreshold: 50, errorThreshold: 50,
          target: { packageId, siteIds: [s.id], productIds: [], versions: [], deviceIds: [] }, grouping: { canarySize: 1, groupSize: 10, groupPercent: null },
        })
        .returning({ id: firmwareRollout.id });
      const [g] = await t.ctx.db.insert(firmwareRolloutGroup).values({ rolloutId: r!.id, no: 1, canary: true, state: 'running', successThreshold: 50, errorThreshold: 50 }).returning({ id: firmwareRolloutGroup.id });
      const [task] = await t.ctx.db
        .insert(firmwareTask)
        .values({ rolloutId: r!.id, groupId: g!.id, deviceId, siteId: s.id, toVersion: '4.0.0', state: 'issuedSuccess' })
        .returning({ id: firmwareTask.id });
      taskId = task!.id;
    });

    it('answers the file to a valid token without a session, and byte ranges so a device resumes', async () => {
      const whole = await download(tokenFor());
      expect(whole.status).toBe(200);
      expect(whole.raw.equals(data)).toBe(true);
      expect(whole.headers.get('accept-ranges')).toBe('bytes');
      expect(whole.headers.get('x-firmware-sha256')).toBe(createHash('sha256').update(data).digest('hex'));
      const part = await download(tokenFor(), { range: `bytes=${100 * KB}-` });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes ${100 * KB}-${data.length - 1}/${data.length}`);
      expect(part.raw.equals(data.subarray(100 * KB))).toBe(true);
      const mid = await download(tokenFor(), { range: 'bytes=10-19' });
      expect([mid.status, mid.raw.equals(data.subarray(10, 20))]).toEqual([206, true]);
      const suffix = await download(tokenFor(), { range: 'bytes=-16' });
      expect(suffix.raw.equals(data.subarray(data.length - 16))).toBe(true);
      const beyond = await download(tokenFor(), { range: `bytes=${data.length}-` });
      expect([beyond.status, beyond.headers.get('content-range')]).toEqual([416, `bytes */${data.length}`]);
    });

    it('refuses an expired, tampered or foreign token, one of another kind, and a cancelled task', async () => {
      const refused = async (token: string) => {
        const r = await download(token);
        return [r.status, r.body.tipMsg];
      };
      const no = [403, FIRMWARE_ERRORS.tokenInvalid];
      expect(await refused(tokenFor({}, -1000))).toEqual(no);
      const good = tokenFor();
      const [v, body, mac] = good.split('.') as [string, string, string];
      const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, number>;
      const forged = Buffer.from(JSON.stringify({ ...claims, d: otherDeviceId })).toString('base64url');
      expect(await refused(`${v}.${forged}.${mac}`)).toEqual(no);
      expect(await refused(`${v}.${body}.${mac.slice(0, -2)}AA`)).toEqual(no);
      expect(await refused(signDeviceToken('another-secret-key-of-another-server', { kind: 'package', taskId, packageId, deviceId }, 60_000))).toEqual(no);
      // Well signed, but the claims do not match the task.
      expect(await refused(tokenFor({ deviceId: otherDeviceId }))).toEqual(no);
      expect(await refused(tokenFor({ packageId: packageId + 1000 }))).toEqual(no);
      expect(await refused(signDeviceToken(t.ctx.config.secretKey, { kind: 'log', logId: taskId, captureId: 1, deviceId }, 60_000))).toEqual(no);
      await t.ctx.db.update(firmwareTask).set({ state: 'cancelled' }).where(eq(firmwareTask.id, taskId));
      expect(await refused(tokenFor())).toEqual(no);
      await t.ctx.db.update(firmwareTask).set({ state: 'issuedSuccess' }).where(eq(firmwareTask.id, taskId));
      expect((await download(tokenFor())).status).toBe(200);
    });
  });
});

/** The data of a response already awaited (expects success). */
function okDataSync<T>(r: { body: { errorCode: string; tipMsg: string; data: T } }): T {
  expect(r.body.errorCode, r.body.tipMsg).toBe('00000');
  return r.body.data;
}
