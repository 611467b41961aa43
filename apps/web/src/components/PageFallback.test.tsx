import { TOKEN_STORAGE_KEY } from '@ess/contract/constants';
import { cleanup, render, screen } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FirstLoadFallback, signedInVisit } from './PageFallback.tsx';

afterEach(() => {
  cleanup();
  localStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe('first-load fallback', () => {
  it("a signed-in page's first load shows the console's header bar with its title over the spinner", () => {
    localStorage.setItem(TOKEN_STORAGE_KEY, 'tok');
    window.history.replaceState(null, '', '/system/user');
    render(<FirstLoadFallback />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('储能运维平台');
    expect(screen.getByRole('status', { name: 'Loading...' })).toBeTruthy();
  });

  it('the login page, or a visit without a token, shows the spinner alone', () => {
    window.history.replaceState(null, '', '/system/user');
    render(<FirstLoadFallback />);
    expect(screen.queryByRole('heading')).toBeNull();
    expect(screen.getByRole('status', { name: 'Loading...' })).toBeTruthy();
    localStorage.setItem(TOKEN_STORAGE_KEY, 'tok');
    expect(signedInVisit('/login')).toBe(false);
    expect(signedInVisit('/home/welcome')).toBe(true);
  });

  it("index.html draws the same header bar before any script (its classes, the title's text)", () => {
    const html = readFileSync(join(import.meta.dirname, '../../index.html'), 'utf8');
    expect(html).toMatch(/<header class="ess-boot-header ess-boot-static"><span class="ess-boot-button"><\/span><h1 class="ess-boot-title">储能运维平台<\/h1><\/header>/);
    expect(html).toMatch(/\.ess-boot-header \{/);
  });

  it("the classes the inline script puts on <html> (vite.config.ts) style nothing of <html> itself", () => {
    const config = readFileSync(join(import.meta.dirname, '../../vite.config.ts'), 'utf8');
    const marks = [...config.matchAll(/documentElement\.classList\.add\('([\w-]+)'\)/g)].map((m) => m[1]!);
    expect(marks.sort()).toEqual(['ess-boot-shell', 'ess-boot-titled']);
    const css = /<style>([\s\S]*?)<\/style>/.exec(readFileSync(join(import.meta.dirname, '../../index.html'), 'utf8'))![1]!;
    // Each mark appears only as a condition on <html> (html.x ..., html:not(.x) ...), never as a
    // rule of its own: a title's nowrap and overflow once reached the whole page that way.
    for (const mark of marks) {
      const uses = [...css.matchAll(new RegExp(`[^\\s{};]*\\.${mark}\\b[^{]*\\{`, 'g'))].map((m) => m[0].trim());
      expect(uses.length).toBeGreaterThan(0);
      for (const use of uses) expect(use).toMatch(new RegExp(`^html(:not\\()?\\.${mark}\\)? \\S`));
    }
  });
});
