import { describe, expect, it } from 'vitest';
import { sanitiseSvg } from './svg-sanitize.ts';

/** A hostile corpus: each input tries one way to run script or load something from outside. */
const HOSTILE: [string, string][] = [
  ['script element', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><rect id="r" width="1" height="1"/></svg>'],
  ['script with xlink', '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><script xlink:href="http://evil.example/x.js"/></svg>'],
  ['onload on root', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><g/></svg>'],
  ['onclick upper case', '<svg xmlns="http://www.w3.org/2000/svg"><rect ONCLICK="alert(1)" width="5" height="5"/></svg>'],
  ['onmouseover on text', '<svg xmlns="http://www.w3.org/2000/svg"><text onmouseover="alert(1)">x</text></svg>'],
  ['onbegin on animate', '<svg xmlns="http://www.w3.org/2000/svg"><animate onbegin="alert(1)" attributeName="x" dur="1s"/></svg>'],
  ['javascript link', '<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:alert(1)"><text>go</text></a></svg>'],
  ['javascript xlink with spaces', '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><a xlink:href=" jav&#x09;ascript:alert(1)"><text>go</text></a></svg>'],
  ['set href to javascript', '<svg xmlns="http://www.w3.org/2000/svg"><a id="l"><set attributeName="href" to="javascript:alert(1)"/><text>x</text></a></svg>'],
  ['animate href', '<svg xmlns="http://www.w3.org/2000/svg"><a><animate attributeName="href" values="javascript:alert(1)"/></a></svg>'],
  ['foreignObject with html', '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><body xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert(1)"/></body></foreignObject></svg>'],
  ['foreignObject iframe', '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject width="10" height="10"><iframe src="https://evil.example"></iframe></foreignObject></svg>'],
  ['external use', '<svg xmlns="http://www.w3.org/2000/svg"><use href="https://evil.example/sprite.svg#a"/></svg>'],
  ['external image', '<svg xmlns="http://www.w3.org/2000/svg"><image href="https://evil.example/track.png" width="1" height="1"/></svg>'],
  ['data URL image', '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="data:image/svg+xml;base64,PHN2Zz48c2NyaXB0PmFsZXJ0KDEpPC9zY3JpcHQ+PC9zdmc+"/></svg>'],
  ['feImage external', '<svg xmlns="http://www.w3.org/2000/svg"><filter id="f"><feImage href="https://evil.example/x.png"/></filter></svg>'],
  ['style import', '<svg xmlns="http://www.w3.org/2000/svg"><style>@import url("https://evil.example/x.css"); rect{fill:red}</style><rect/></svg>'],
  ['style url background', '<svg xmlns="http://www.w3.org/2000/svg"><style>rect{fill:url(https://evil.example/p.svg#g)}</style><rect/></svg>'],
  ['inline style url', '<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill:url(\'https://evil.example/x\')"/></svg>'],
  ['escaped css url', '<svg xmlns="http://www.w3.org/2000/svg"><rect style="background:u\\72l(https://evil.example/x)"/></svg>'],
  ['css escapes closing style', '<svg xmlns="http://www.w3.org/2000/svg"><style>rect{fill:red}\\3c /style\\3e \\3c script\\3e alert(1)\\3c /script\\3e</style></svg>'],
  ['presentation url attr', '<svg xmlns="http://www.w3.org/2000/svg"><rect fill="url(https://evil.example/x#p)" filter="url(//evil.example/f)"/></svg>'],
  ['style element closing trick', '<svg xmlns="http://www.w3.org/2000/svg"><style></style><script>alert(1)</script></svg>'],
  ['xml-stylesheet PI', '<?xml-stylesheet href="https://evil.example/x.css"?><svg xmlns="http://www.w3.org/2000/svg"><rect/></svg>'],
  ['entity in doctype', '<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>'],
  ['iframe at root', '<svg xmlns="http://www.w3.org/2000/svg"><iframe src="javascript:alert(1)"/></svg>'],
  ['cdata script', '<svg xmlns="http://www.w3.org/2000/svg"><script><![CDATA[alert(1)]]></script></svg>'],
  ['html mutation', '<svg xmlns="http://www.w3.org/2000/svg"><p><style><img src=x onerror=alert(1)></style></p></svg>'],
  ['math namespace confusion', '<svg xmlns="http://www.w3.org/2000/svg"><math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math></svg>'],
  ['embed and object', '<svg xmlns="http://www.w3.org/2000/svg"><embed src="https://evil.example/x.swf"/><object data="https://evil.example/x"/></svg>'],
  ['handler with namespace', '<svg xmlns="http://www.w3.org/2000/svg" xmlns:ev="http://www.w3.org/2001/xml-events"><rect ev:onclick="alert(1)"/></svg>'],
];

/** What must never appear in the output. */
function leaks(svg: string): string[] {
  const found: string[] = [];
  const lower = svg.toLowerCase();
  if (/<script/.test(lower)) found.push('script');
  if (/\son[a-z]+\s*=/.test(lower) || /:on[a-z]+\s*=/.test(lower)) found.push('event handler');
  if (/javascript:/.test(lower.replace(/\s/g, "").replace(/\p{Cc}/gu, ""))) found.push("javascript:");
  if (/foreignobject/.test(lower)) found.push('foreignObject');
  if (/https?:|\/\/evil|file:|data:/.test(lower.replace('http://www.w3.org/2000/svg', ''))) found.push('external reference');
  if (/@import/.test(lower)) found.push('@import');
  if (/<(iframe|embed|object|image|img|feimage|set|animate)\b/.test(lower)) found.push('embedding element');
  return found;
}

describe('SVG sanitiser', () => {
  it.each(HOSTILE)('removes %s', (_name, input) => {
    const out = sanitiseSvg(input);
    if (out === null) return; // nothing left is a safe answer
    expect(leaks(out.svg)).toEqual([]);
  });

  it('keeps an ordinary diagram: shapes, text, ids, gradients by fragment, classes and CSS', () => {
    const input = `<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 200 100" width="200" height="100">
  <defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient><symbol id="breaker"><rect width="4" height="4"/></symbol></defs>
  <style>.bus{stroke:#333;fill:url(#g)}</style>
  <line class="bus" id="bus1" x1="0" y1="10" x2="200" y2="10"/>
  <use href="#breaker" x="10" y="10"/>
  <use xlink:href="#breaker" x="20" y="10"/>
  <text id="pcs1-power" x="50" y="50">-- kW</text>
  <a href="#bus1"><text id="label">bus</text></a>
</svg>`;
    const out = sanitiseSvg(input)!;
    expect(out).not.toBeNull();
    expect(out.svg).toMatch(/^<svg/);
    expect(out.svg).toContain('viewBox="0 0 200 100"');
    expect(out.svg).toContain('fill:url(#g)');
    expect(out.svg).toContain('href="#breaker"');
    expect(out.svg).toContain('-- kW');
    expect(out.elementIds).toEqual(expect.arrayContaining(['g', 'breaker', 'bus1', 'pcs1-power', 'label']));
    expect(leaks(out.svg)).toEqual([]);
  });

  it('answers null when no <svg> root is left', () => {
    expect(sanitiseSvg('<script>alert(1)</script>')).toBeNull();
    expect(sanitiseSvg('<html><body>hi</body></html>')).toBeNull();
  });
});
