/**
 * antd's prebuilt styles (scripts/antd-static-css.tsx, added by the build in parts). index.html's
 * inline script preloads the login page's or the console's parts while the page is parsed, as
 * `<link rel=preload as=style>` marked with STATIC_STYLE_ATTR (a stylesheet added there would hold
 * up the first paint of the spinner). Before the first render they are applied, in order, where
 * the preloads are (first in <head>, where antd puts the styles it makes, so the console's own
 * stylesheet still comes after them), and the render waits for them: antd reads the list of
 * styles they hold once, when its first component renders. Without them (development, a failed
 * download) antd makes every style at run time as usual.
 */
export const STATIC_STYLE_ATTR = 'data-ess-antd';

/**
 * antd adds the styles it makes at the head of <head>, after the last <style> marked as such
 * (rc-util's injectCSS: data-rc-order="prependQueue", ordered by data-rc-priority; antd's
 * components use -999). An empty marker of priority -1000 after the prebuilt
 * stylesheets keeps those styles after them, in the order antd gives them, as without prebuilt
 * styles: a later, more specific override still wins.
 */
function orderMarker(doc: Document): HTMLStyleElement {
  const marker = doc.createElement('style');
  marker.setAttribute('data-rc-order', 'prependQueue');
  marker.setAttribute('data-rc-priority', '-1000');
  marker.setAttribute(STATIC_STYLE_ATTR, '');
  return marker;
}

/** Applies the preloaded stylesheets; resolves once each has loaded or failed, at once when there is none. */
export function applyStaticStyles(doc: Document = document): Promise<void> {
  const preloads = [...doc.querySelectorAll<HTMLLinkElement>(`link[rel=preload][${STATIC_STYLE_ATTR}]`)];
  preloads.at(-1)?.after(orderMarker(doc));
  return Promise.all(
    preloads.map(
      (preload) =>
        new Promise<void>((resolve) => {
          const sheet = doc.createElement('link');
          sheet.rel = 'stylesheet';
          sheet.href = preload.href;
          sheet.setAttribute(STATIC_STYLE_ATTR, '');
          sheet.addEventListener('load', () => resolve(), { once: true });
          sheet.addEventListener('error', () => resolve(), { once: true });
          preload.replaceWith(sheet);
        }),
    ),
  ).then(() => undefined);
}
