import { connect, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';

/**
 * A shutdown is not held up by a client that stalls: a request whose body stops half-way keeps
 * its connection busy, and the server cuts it after SHUTDOWN_GRACE_MS (here 1 s) instead of
 * waiting for the client (Node's own request timeout is 5 minutes).
 */
describe('closing the server with a request in progress', () => {
  const sockets: Socket[] = [];
  afterAll(() => {
    for (const s of sockets) s.destroy();
  });

  it('cuts a stalled upload after the grace period and finishes stopping', async () => {
    const t = await startTestApp('pglite', { SHUTDOWN_GRACE_MS: '1000' });
    const { port } = new URL(t.url);
    const socket = connect(Number(port), '127.0.0.1');
    sockets.push(socket);
    const closed = new Promise<void>((r) => socket.on('close', () => r()));
    await new Promise<void>((r) => socket.once('connect', () => r()));
    // Headers and the first bytes of a 100 kB body, then nothing.
    socket.write('POST /api/manager/basic/user/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"username":');
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    await t.stop();
    const took = Date.now() - started;
    await closed;
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(20_000);
  });
});
