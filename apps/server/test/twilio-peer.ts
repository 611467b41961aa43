import { startHttpPeer, type HttpPeer, type PeerAnswer, type PeerRequest } from './http-peer.ts';

/**
 * A local stand-in for Twilio's Messages API, as documented: POST
 * /2010-04-01/Accounts/{AccountSid}/Messages.json with HTTP Basic auth (Account SID : Auth Token)
 * and a form body (To, From or MessagingServiceSid, Body); created → 201 with the message and its
 * sid, an error → the documented {code, message, more_info, status}. `mode` makes it fail the
 * next requests as Twilio does (an invalid number, throttling, an internal error).
 */
export type TwilioMode = 'ok' | 'invalid-to' | 'too-many' | 'internal';

export interface TwilioPeer extends HttpPeer {
  mode: TwilioMode;
  /** The messages it accepted: To, From, Body. */
  accepted: { to: string; from: string; body: string; sid: string }[];
}

export const twilioError = (status: number, code: number, msg: string): PeerAnswer => ({
  status, body: { code, message: msg, more_info: `https://www.twilio.com/docs/errors/${code}`, status },
});

export async function startTwilioPeer(accountSid: string, authToken: string): Promise<TwilioPeer> {
  const accepted: TwilioPeer['accepted'] = [];
  const state = { mode: 'ok' as TwilioMode };
  const handle = (req: PeerRequest): PeerAnswer => {
    if (req.method !== 'POST' || req.url !== `/2010-04-01/Accounts/${accountSid}/Messages.json`) return twilioError(404, 20404, 'The requested resource was not found');
    const [scheme, encoded] = (req.headers.authorization ?? '').split(' ');
    const [user, pass] = Buffer.from(encoded ?? '', 'base64').toString('utf8').split(':');
    if (scheme !== 'Basic' || user !== accountSid || pass !== authToken) return twilioError(401, 20003, 'Authenticate');
    if (req.headers['content-type'] !== 'application/x-www-form-urlencoded') return twilioError(400, 20001, 'Unsupported content type');
    const form = new URLSearchParams(req.body);
    const from = form.get('From') ?? form.get('MessagingServiceSid');
    if (!form.get('Body') || !from) return twilioError(400, 21602, 'Message body is required.');
    switch (state.mode) {
      case 'invalid-to': return twilioError(400, 21211, `The 'To' number ${form.get('To')} is not a valid phone number.`);
      case 'too-many': return twilioError(429, 20429, 'Too Many Requests');
      case 'internal': return twilioError(500, 20500, 'An internal server error has occurred');
      case 'ok': break;
    }
    const sid = `SM${accepted.length.toString(16).padStart(32, '0')}`;
    accepted.push({ to: form.get('To') ?? '', from, body: form.get('Body') ?? '', sid });
    return {
      status: 201,
      body: { account_sid: accountSid, api_version: '2010-04-01', body: form.get('Body'), direction: 'outbound-api', error_code: null, from, sid, status: 'queued', to: form.get('To') },
    };
  };
  const peer = await startHttpPeer(handle);
  return {
    ...peer,
    accepted,
    get mode() {
      return state.mode;
    },
    set mode(m: TwilioMode) {
      state.mode = m;
    },
  };
}
