import { describe, expect, it } from 'vitest';
import { escapeHtml, htmlToText, renderTemplate, smsSegments, variablesOf } from './message.template.ts';

describe('the message template engine', () => {
  const values = { station: 'Shanghai <1> & "Co"', level: 1, description: "it's <b>hot</b>", device: null };

  it('escapes every value in HTML and keeps the template’s markup', () => {
    expect(renderTemplate('<p>${station}: ${ level }</p><i>${description}</i>', values, 'html')).toBe(
      '<p>Shanghai &lt;1&gt; &amp; &quot;Co&quot;: 1</p><i>it&#39;s &lt;b&gt;hot&lt;/b&gt;</i>',
    );
  });

  it('leaves values as they are in text, renders a missing one empty and $${ as a literal', () => {
    expect(renderTemplate('${station} [${device}] [${time}] $${station}', values, 'text')).toBe('Shanghai <1> & "Co" [] [] ${station}');
  });

  it('does not read inherited properties as values', () => {
    expect(renderTemplate('${constructor}${toString}', {}, 'text')).toBe('');
  });

  it('lists the variables of several texts in order of first use', () => {
    expect(variablesOf('Alarm ${level} at ${station}', null, '<p>${station} ${description}</p>')).toEqual(['level', 'station', 'description']);
  });

  it('makes a text body from HTML', () => {
    expect(htmlToText('<h1>Alarm</h1><p>Level&nbsp;1 &amp; <a href="https://x.test/a">open</a></p><ul><li>one</li></ul>')).toBe(
      'Alarm\nLevel 1 & open (https://x.test/a)\n- one',
    );
    expect(escapeHtml('`<>')).toBe('&#96;&lt;&gt;');
  });

  it('counts SMS segments: GSM-7 160/153, UCS-2 70/67', () => {
    expect(smsSegments('a'.repeat(160))).toEqual({ length: 160, segments: 1 });
    expect(smsSegments('a'.repeat(161))).toEqual({ length: 161, segments: 2 });
    expect(smsSegments('告'.repeat(70))).toEqual({ length: 70, segments: 1 });
    expect(smsSegments('告'.repeat(71))).toEqual({ length: 71, segments: 2 });
  });
});
