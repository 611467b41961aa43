import { afterEach, describe, expect, it } from 'vitest';
import { applyStaticStyles, STATIC_STYLE_ATTR } from './static-style.ts';

const settled = (p: Promise<void>) => {
  let done = false;
  void p.then(() => (done = true));
  return async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
    return done;
  };
};
const preload = (href: string) => {
  const l = Object.assign(document.createElement('link'), { rel: 'preload', as: 'style', href });
  l.setAttribute(STATIC_STYLE_ATTR, '');
  document.head.append(l);
  return l;
};
const sheets = () => [...document.querySelectorAll<HTMLLinkElement>(`link[rel=stylesheet][${STATIC_STYLE_ATTR}]`)];

describe('antd prebuilt stylesheets', () => {
  afterEach(() => document.querySelectorAll(`[${STATIC_STYLE_ATTR}]`).forEach((l) => l.remove()));

  it('let the first render go at once without them (development build)', async () => {
    await expect(settled(applyStaticStyles())()).resolves.toBe(true);
  });

  it('are applied in order where they were preloaded, first in <head>', () => {
    const own = document.head.appendChild(document.createElement('style'));
    preload('/a.css');
    preload('/b.css');
    document.head.prepend(...document.querySelectorAll(`link[${STATIC_STYLE_ATTR}]`));
    void applyStaticStyles();
    expect(sheets().map((l) => new URL(l.href).pathname)).toEqual(['/a.css', '/b.css']);
    expect(document.querySelectorAll('link[rel=preload]')).toHaveLength(0);
    expect(sheets()[1]!.compareDocumentPosition(own) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    own.remove();
  });

  it("keep the styles antd makes after them, in antd's order", async () => {
    preload('/a.css');
    document.head.prepend(...document.querySelectorAll(`link[${STATIC_STYLE_ATTR}]`));
    void applyStaticStyles();
    // What antd's style registry (rc-util) does: after the last queued <style> of a priority not above its own.
    const { updateCSS } = await import('rc-util/es/Dom/dynamicCSS');
    const made = updateCSS('.x{color:red}', 'ess-test-style', { prepend: 'queue', priority: -999 });
    expect(sheets()[0]!.compareDocumentPosition(made) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(document.head.firstElementChild).toBe(sheets()[0]);
    made.remove();
  });

  it('hold the first render until every part has loaded', async () => {
    preload('/a.css');
    preload('/b.css');
    const done = settled(applyStaticStyles());
    const [a, b] = sheets();
    await expect(done()).resolves.toBe(false);
    a!.dispatchEvent(new Event('load'));
    await expect(done()).resolves.toBe(false);
    b!.dispatchEvent(new Event('load'));
    await expect(done()).resolves.toBe(true);
  });

  it('let it go when a part fails: antd then makes the missing styles itself', async () => {
    preload('/missing.css');
    const done = settled(applyStaticStyles());
    await expect(done()).resolves.toBe(false);
    sheets()[0]!.dispatchEvent(new Event('error'));
    await expect(done()).resolves.toBe(true);
  });
});
