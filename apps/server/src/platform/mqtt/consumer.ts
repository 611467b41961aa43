import { connect, type IClientOptions, type MqttClient } from 'mqtt';
import type { Logger } from '../logging.ts';

export interface ConsumerOptions {
  url: string;
  clientId: string;
  /** Topic filters, subscribed with QoS 1. */
  topics: string[];
  username?: string;
  password?: string;
  log: Logger;
  onMessage(topic: string, payload: Buffer, retained: boolean): void;
}

export interface Consumer {
  client: MqttClient;
  /** Stops receiving: after this resolves no message arrives (those received were handed over). */
  close(): Promise<void>;
}

/**
 * A QoS 1 subscriber with a persistent session (clean: false under a fixed client id), so the
 * broker keeps what arrives while this instance restarts and delivers it on reconnect.
 * Messages are acknowledged as they are handed over; the ingest writes them within its batch
 * interval and flushes before close, so only a crash can lose that short window.
 */
export async function startConsumer(o: ConsumerOptions): Promise<Consumer> {
  const opts: IClientOptions = {
    clientId: o.clientId,
    clean: false,
    protocolVersion: 4,
    reconnectPeriod: 2000,
    connectTimeout: 10_000,
    keepalive: 30,
    resubscribe: true,
    ...(o.username ? { username: o.username } : {}),
    ...(o.password ? { password: o.password } : {}),
  };
  const client = connect(o.url, opts);
  let lastError = '';
  client.on('error', (err) => {
    if (err.message !== lastError) o.log.warn({ err: err.message, url: o.url }, 'mqtt ingest client error');
    lastError = err.message;
  });
  client.on('message', (topic, payload, packet) => {
    o.onMessage(topic, payload, packet.retain);
  });
  client.on('connect', () => {
    lastError = '';
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`MQTT broker ${o.url} did not answer within 15 s`)), 15_000);
    client.once('connect', () => {
      clearTimeout(timer);
      resolve();
    });
  }).catch(async (err: unknown) => {
    await client.endAsync(true);
    throw err;
  });
  // Resolve start only once the subscription is in place; mqtt.js subscribes again after a
  // reconnect whose session the broker did not keep (resubscribe).
  await client.subscribeAsync(o.topics, { qos: 1 });
  return {
    client,
    close: async () => {
      await client.endAsync(false);
    },
  };
}
