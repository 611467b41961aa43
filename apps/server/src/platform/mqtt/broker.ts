import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { Aedes } from 'aedes';

export interface EmbeddedBroker {
  /** mqtt://host:port, what clients (the ingest, the simulator) connect to. */
  url: string;
  port: number;
  /**
   * Subscribes inside the broker's process: messages reach `handler` without a network hop or
   * a second MQTT parse. The publisher's PUBACK waits for the handler's `ack` (the ingest calls it
   * once the message is stored), and the broker hands over at most its `concurrency` messages not
   * yet acked; the rest wait in the broker.
   */
  subscribe(filter: string, handler: (topic: string, payload: Buffer, ack: () => void) => void): Promise<void>;
  close(): Promise<void>;
}

/**
 * The embedded MQTT broker (aedes) used when MQTT_URL is unset: one process runs everything.
 * Port 0 picks a free port (tests). QoS 1 sessions and retained messages live in memory, so
 * they last as long as the server does.
 */
export async function startEmbeddedBroker(port: number, host: string): Promise<EmbeddedBroker> {
  // A stalled subscriber must not freeze delivery to everyone (aedes' drainTimeout).
  const broker = await Aedes.createBroker({ concurrency: 1000, drainTimeout: 30_000 });
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    broker.handle(socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actual = (server.address() as AddressInfo).port;
  const connectHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    url: `mqtt://${connectHost}:${actual}`,
    port: actual,
    subscribe: (filter, handler) =>
      new Promise<void>((resolve) => {
        broker.subscribe(
          filter,
          (packet, cb) => {
            let acked = false;
            handler(packet.topic, Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload), () => {
              if (acked) return;
              acked = true;
              cb();
            });
          },
          () => resolve(),
        );
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        broker.close(() => {
          for (const s of sockets) s.destroy();
        });
      }),
  };
}
