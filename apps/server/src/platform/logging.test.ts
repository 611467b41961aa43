import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createLogger, REDACTED, redacted, SECRET_FIELDS } from './logging.ts';

/** The server's log lines never carry a secret-bearing field, however deep it is logged. */

function capture() {
  const lines: Record<string, unknown>[] = [];
  let raw = '';
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      raw += chunk.toString('utf8');
      for (const l of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Record<string, unknown>);
      cb();
    },
  });
  return { sink, lines, raw: () => raw };
}

const SECRET = 'S3cret-value-never-logged';

describe('log redaction', () => {
  it.each([
    ['the server logger', (sink: Writable) => createLogger('info', sink)],
    ['a logger handed to the app (tests), wrapped', (sink: Writable) => redacted(pino({ level: 'info' }, sink))],
  ])('%s censors every secret field at the top and up to three objects down', (_name, make) => {
    const c = capture();
    const log = make(c.sink);
    for (const key of SECRET_FIELDS) {
      log.info({ [key]: SECRET }, 'top');
      log.info({ channel: { [key]: SECRET, name: 'twilio' } }, 'one down');
      log.error({ job: { data: { [key]: SECRET } } }, 'two down');
      log.warn({ a: { b: { c: { [key]: SECRET } } } }, 'three down');
    }
    log.info({ req: { method: 'POST', url: '/sms/channel/add', headers: { authorization: `Bearer ${SECRET}`, cookie: `sid=${SECRET}` } } }, 'request');
    expect(c.lines).toHaveLength(SECRET_FIELDS.length * 4 + 1);
    expect(c.raw()).not.toContain(SECRET);
    expect(c.lines[1]).toMatchObject({ channel: { [SECRET_FIELDS[0]]: REDACTED, name: 'twilio' } });
    expect(c.lines.at(-1)).toMatchObject({ req: { method: 'POST', headers: { authorization: REDACTED, cookie: REDACTED } } });
  });

  it('leaves other fields alone (the censor is not a blanket)', () => {
    const c = capture();
    createLogger('info', c.sink).info({ channelId: 7, provider: 'aliyun', accessKeyId: 'LTAI-public-id', reason: 'SignatureDoesNotMatch' }, 'send failed');
    expect(c.lines[0]).toMatchObject({ channelId: 7, provider: 'aliyun', accessKeyId: 'LTAI-public-id', reason: 'SignatureDoesNotMatch', msg: 'send failed' });
  });

  it('a logger without the redaction would have shown it (the test can fail)', () => {
    const c = capture();
    pino({ level: 'info' }, c.sink).info({ channel: { accessKeySecret: SECRET } }, 'plain');
    expect(c.raw()).toContain(SECRET);
  });
});
