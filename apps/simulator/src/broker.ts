import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Aedes } from 'aedes';

export interface EmbeddedBroker {
  url: string;
  port: number;
  broker: Aedes;
  close(): Promise<void>;
}

/** An in-process MQTT broker (aedes) on a TCP port; port 0 picks a free one. */
export async function startEmbeddedBroker(port = 0, host = '127.0.0.1'): Promise<EmbeddedBroker> {
  const broker = await Aedes.createBroker();
  const server = createServer(broker.handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `mqtt://${host}:${actual}`,
    port: actual,
    broker,
    close: () =>
      new Promise<void>((resolve) => {
        broker.close(() => server.close(() => resolve()));
      }),
  };
}
