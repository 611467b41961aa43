import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { generate, parser as packetParser, type Packet } from 'mqtt-packet';
import type { Logger } from '../logging.ts';

/** One message handed to the consumer's owner. */
export interface Delivery {
  topic: string;
  payload: Buffer;
  retained: boolean;
  /** The broker sent it before (MQTT DUP flag): an earlier copy may already be stored. */
  redelivered: boolean;
  /**
   * Tells the broker the message is safe (stored, or dropped on purpose). Until then the broker
   * keeps it and delivers it again after a reconnect; an ack after the connection it came on has
   * gone does nothing (the broker already delivers it again).
   */
  ack: () => void;
}

export interface ConsumerOptions {
  url: string;
  clientId: string;
  /** Topic filters, subscribed with QoS 1. */
  topics: string[];
  username?: string;
  password?: string;
  /**
   * Messages the broker may have sent and not yet got back acknowledged (MQTT 5 Receive Maximum,
   * 1–65535): what the ingest holds in memory at most; beyond it the broker queues.
   */
  receiveMaximum: number;
  log: Logger;
  onMessage(d: Delivery): void;
}

export interface Consumer {
  /** Messages received on the current connection and not yet acknowledged. */
  readonly unacked: number;
  /**
   * Stops handing over messages; acknowledgements of those handed over still go out. What
   * arrives afterwards is left unacknowledged, so the broker delivers it again (to the next
   * session under this client id, or another member of the shared subscription).
   */
  pause(): void;
  /** Disconnects (the persistent session stays with the broker). */
  close(): Promise<void>;
}

const PROTOCOL = 5;
/** The session outlives the connection for good, as a 3.1.1 clean-session-false session does. */
const SESSION_NEVER_EXPIRES = 0xffffffff;
const KEEPALIVE_S = 30;
const RECONNECT_MS = 2000;
/** A broker that has not answered the CONNECT by then is given up on (and tried again). */
const CONNACK_TIMEOUT_MS = 10_000;
const START_TIMEOUT_MS = 15_000;

/**
 * PUBACKs of one connection, sent in the order the messages came (MQTT 4.6) once each is acked:
 * a message acked early waits behind an older one not yet safe.
 */
class AckWindow {
  private ids: number[] = [];
  private done: boolean[] = [];
  /** Sequence number of ids[0]. */
  private base = 0;
  private closed = false;

  constructor(private readonly send: (packets: Buffer) => void) {}

  get size(): number {
    return this.ids.length;
  }

  /** Registers a received QoS 1 message; returns its ack. */
  add(messageId: number): () => void {
    const seq = this.base + this.ids.length;
    this.ids.push(messageId);
    this.done.push(false);
    return () => this.ack(seq);
  }

  /** The connection ended: later acks do nothing (the broker delivers those messages again). */
  close(): void {
    this.closed = true;
    this.ids = [];
    this.done = [];
  }

  private ack(seq: number): void {
    if (this.closed) return;
    const i = seq - this.base;
    if (i < 0 || i >= this.done.length) return;
    this.done[i] = true;
    if (i !== 0) return;
    let n = 0;
    while (n < this.done.length && this.done[n]) n++;
    const out = Buffer.allocUnsafe(4 * n);
    for (let k = 0; k < n; k++) {
      const id = this.ids[k]!;
      // PUBACK: type 4, remaining length 2, packet id (reason code omitted = success, also in MQTT 5).
      out[4 * k] = 0x40;
      out[4 * k + 1] = 2;
      out[4 * k + 2] = id >> 8;
      out[4 * k + 3] = id & 0xff;
    }
    this.ids.splice(0, n);
    this.done.splice(0, n);
    this.base += n;
    this.send(out);
  }
}

interface Link {
  socket: Socket;
  window: AckWindow;
  connected: boolean;
  pingSentAt: number | null;
}

/**
 * The ingest's MQTT 5 subscriber (docs/decisions/0025): a persistent session (clean start off,
 * session never expiring) under a fixed client id, QoS 1 on the given filters, and every message
 * acknowledged only when its owner says it is safe — after the batch holding it committed. mqtt.js
 * acknowledges when its handler returns and hands over one message at a time, so it cannot hold
 * thousands unacknowledged while a batch fills; this client, on mqtt-packet (mqtt.js's codec), does
 * only what the ingest needs: connect (mqtt:// or mqtts://), subscribe, receive, acknowledge, ping
 * and reconnect. Receive Maximum bounds what the broker sends before acknowledgements come back,
 * so a stalled database makes the broker queue instead of this process.
 */
export async function startConsumer(o: ConsumerOptions): Promise<Consumer> {
  const url = new URL(o.url);
  const secure = ['mqtts:', 'ssl:', 'tls:'].includes(url.protocol);
  if (!secure && !['mqtt:', 'tcp:'].includes(url.protocol)) throw new Error(`MQTT_URL ${o.url}: the ingest connects over mqtt:// or mqtts:// only`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || (secure ? 8883 : 1883));
  const receiveMaximum = Math.max(1, Math.min(65535, Math.floor(o.receiveMaximum)));

  let link: Link | null = null;
  let paused = false;
  let closing = false;
  let subscribed = false;
  let lastError = '';
  let reconnectTimer: NodeJS.Timeout | null = null;
  let started: { resolve: () => void; reject: (err: Error) => void } | null = null;

  const warn = (message: string, extra: Record<string, unknown> = {}) => {
    if (message === lastError) return;
    lastError = message;
    o.log.warn({ err: message, url: o.url, ...extra }, 'mqtt ingest client error');
  };

  const write = (l: Link, packet: Packet) => {
    if (!l.socket.destroyed) l.socket.write(generate(packet, { protocolVersion: PROTOCOL }));
  };

  const open = () => {
    reconnectTimer = null;
    if (closing) return;
    const socket = secure ? tlsConnect({ host, port, servername: host }) : netConnect({ host, port });
    socket.setNoDelay(true);
    const l: Link = {
      socket,
      window: new AckWindow((buf) => {
        if (!socket.destroyed) socket.write(buf);
      }),
      connected: false,
      pingSentAt: null,
    };
    link = l;
    const parser = packetParser({ protocolVersion: PROTOCOL });
    parser.on('packet', (p: Packet) => onPacket(l, p));
    parser.on('error', (err: Error) => {
      warn(`malformed packet from the broker: ${err.message}`);
      socket.destroy();
    });
    socket.on('data', (d: Buffer) => parser.parse(d));
    socket.on('error', (err: Error) => warn(err.message));
    socket.on('close', () => {
      l.window.close();
      l.connected = false;
      if (link === l) link = null;
      if (!closing) reconnectTimer = setTimeout(open, RECONNECT_MS);
    });
    const connackTimer = setTimeout(() => {
      if (!l.connected) {
        warn('broker did not answer the CONNECT');
        socket.destroy();
      }
    }, CONNACK_TIMEOUT_MS);
    connackTimer.unref();
    socket.once('close', () => clearTimeout(connackTimer));
    socket.once(secure ? 'secureConnect' : 'connect', () => {
      write(l, {
        cmd: 'connect', protocolId: 'MQTT', protocolVersion: PROTOCOL, clean: false, clientId: o.clientId, keepalive: KEEPALIVE_S,
        properties: { sessionExpiryInterval: SESSION_NEVER_EXPIRES, receiveMaximum },
        ...(o.username ? { username: o.username } : {}),
        ...(o.password ? { password: Buffer.from(o.password) } : {}),
      });
    });
  };

  const onPacket = (l: Link, p: Packet) => {
    switch (p.cmd) {
      case 'connack': {
        if (p.reasonCode) {
          warn(`broker refused the connection (reason ${p.reasonCode})`);
          l.socket.destroy();
          return;
        }
        l.connected = true;
        lastError = '';
        // The filters are (re)subscribed on the first connection and whenever the broker kept no
        // session; a kept session has them and delivers what it queued meanwhile.
        if (!subscribed || !p.sessionPresent) {
          write(l, { cmd: 'subscribe', messageId: 1, subscriptions: o.topics.map((topic) => ({ topic, qos: 1 as const })) });
        } else started?.resolve();
        return;
      }
      case 'suback': {
        const refused = (p.granted as number[]).filter((g) => g >= 0x80);
        if (refused.length) {
          const err = new Error(`broker refused the subscription of ${o.topics.join(', ')} (reason ${refused[0]})`);
          o.log.error({ err: err.message }, 'mqtt ingest subscription refused');
          started?.reject(err);
          return;
        }
        subscribed = true;
        started?.resolve();
        return;
      }
      case 'publish': {
        if (paused) return;
        const qos = p.qos;
        let ack: () => void = noop;
        if (qos === 1) ack = l.window.add(p.messageId!);
        else if (qos === 2) write(l, { cmd: 'pubrec', messageId: p.messageId! });
        o.onMessage({ topic: p.topic, payload: p.payload as Buffer, retained: p.retain, redelivered: p.dup, ack });
        return;
      }
      case 'pubrel':
        write(l, { cmd: 'pubcomp', messageId: p.messageId! });
        return;
      case 'pingresp':
        l.pingSentAt = null;
        return;
      case 'disconnect':
        warn(`broker disconnected the ingest (reason ${p.reasonCode ?? 0})`);
        l.socket.destroy();
        return;
      // Acknowledgements of what a subscriber never sends, and packets a broker never sends.
      case 'puback':
      case 'pubrec':
      case 'pubcomp':
      case 'unsuback':
      case 'auth':
      case 'connect':
      case 'pingreq':
      case 'subscribe':
      case 'unsubscribe':
        return;
    }
  };

  // Keepalive: a PINGREQ every half interval; a broker silent for a whole interval is gone.
  const pinger = setInterval(() => {
    const l = link;
    if (!l?.connected || paused) return;
    if (l.pingSentAt !== null) {
      if (Date.now() - l.pingSentAt > KEEPALIVE_S * 1000) {
        warn('broker did not answer the keepalive ping');
        l.socket.destroy();
      }
      return;
    }
    l.pingSentAt = Date.now();
    write(l, { cmd: 'pingreq' });
  }, (KEEPALIVE_S * 1000) / 2);
  pinger.unref();

  const close = async () => {
    closing = true;
    paused = true;
    clearInterval(pinger);
    if (reconnectTimer) clearTimeout(reconnectTimer);
    const l = link;
    if (!l) return;
    if (l.connected) write(l, { cmd: 'disconnect', reasonCode: 0 });
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => l.socket.destroy(), 2000);
      l.socket.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      l.socket.end();
    });
  };

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`MQTT broker ${o.url} did not answer within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    started = {
      resolve: () => {
        clearTimeout(timer);
        started = null;
        resolve();
      },
      reject: (err) => {
        clearTimeout(timer);
        started = null;
        reject(err);
      },
    };
    open();
  }).catch(async (err: unknown) => {
    await close();
    throw err;
  });

  return {
    get unacked() {
      return link?.window.size ?? 0;
    },
    pause: () => {
      paused = true;
    },
    close,
  };
}

function noop(): void {}
