import type { Page } from 'playwright-core';

/** The standalone sign-in page. */
export class LoginPage {
  constructor(
    readonly page: Page,
    private readonly base: string,
    /** Reads the code a person would read off the captcha image (from the server's store). */
    private readonly captchaCode: (id: string) => Promise<string>,
  ) {}

  async open(): Promise<void> {
    await this.page.goto(`${this.base}/login`);
    await this.captchaLoaded();
  }

  /** Waits until the captcha image has loaded (and so set its cookie). */
  async captchaLoaded(): Promise<void> {
    await this.page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-testid=captcha-image]');
      return !!img && img.complete && img.naturalWidth > 0;
    });
  }

  /** The code of the captcha currently shown. */
  async currentCode(): Promise<string> {
    const cookies = await this.page.context().cookies(`${this.base}/api/manager/basic/`);
    const id = cookies.find((c) => c.name === 'ess_captcha')?.value;
    if (!id) throw new Error('no captcha cookie');
    return this.captchaCode(id);
  }

  async signIn(username: string, password: string, code?: string): Promise<void> {
    await this.page.fill('#username', username);
    await this.page.fill('#password', password);
    await this.page.fill('#code', code ?? (await this.currentCode()));
    await this.page.click('button[type=submit]');
  }

  error() {
    return this.page.locator('[data-testid=login-error]');
  }
}
