/**
 * A signed-in HTTP client for preparing records before a browser looks at them: it signs in the
 * way a script does (captcha image, cookie, code header) and calls /api/manager with the token.
 */
export class ConsoleApi {
  private constructor(
    readonly base: string,
    readonly token: string,
  ) {}

  static async signIn(base: string, captchaCode: (id: string) => Promise<string>, username: string, password: string): Promise<ConsoleApi> {
    return new ConsoleApi(base, await signInToken(base, captchaCode, username, password));
  }

  /** POSTs a JSON body and returns `data`; throws with the tipMsg when the envelope is not a success. */
  async post<T = unknown>(path: string, body: unknown = {}): Promise<T> {
    const res = await fetch(new URL(`/api/manager${path}`, this.base), {
      method: 'POST',
      headers: { authorization: this.token, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const envelope = (await res.json()) as { errorCode: string; tipMsg: string; data: T };
    if (envelope.errorCode !== '00000') throw new Error(`${path}: ${res.status} ${envelope.tipMsg}`);
    return envelope.data;
  }
}

/** Signs in with a freshly read captcha and returns the token; a wrong password throws. */
export async function signInToken(base: string, captchaCode: (id: string) => Promise<string>, username: string, password: string): Promise<string> {
  const res = await fetch(new URL('/api/manager/basic/captcha', base));
  await res.arrayBuffer();
  const id = /ess_captcha=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  if (!id) throw new Error('no captcha cookie');
  const login = await fetch(new URL('/api/manager/basic/user/login', base), {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `ess_captcha=${id}`, 'x-image-code': await captchaCode(id) },
    body: JSON.stringify({ username, password }),
  });
  const envelope = (await login.json()) as { errorCode: string; tipMsg: string; data: { token: string } };
  if (envelope.errorCode !== '00000') throw new Error(`sign-in ${username}: ${login.status} ${envelope.tipMsg}`);
  return envelope.data.token;
}
