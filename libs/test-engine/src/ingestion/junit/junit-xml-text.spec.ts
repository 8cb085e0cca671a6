import { DomainError } from '@switchyard/kernel';
import { junitXmlText } from './junit-xml-text';

const report = (inner: string) => `<testsuite name="s"><testcase name="${inner}"/></testsuite>`;
const refusal = (bytes: Uint8Array) => {
  try {
    junitXmlText(bytes);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return (error as Error).message;
  }
  throw new Error('accepted');
};

describe('the text of a JUnit report', () => {
  it('reads UTF-8, with or without a byte-order mark, and character references to XML characters', () => {
    expect(junitXmlText(Buffer.from(report('é &#233; &#x1F680; 🚀')))).toBe(report('é &#233; &#x1F680; 🚀'));
    expect(junitXmlText(Buffer.from(`\uFEFF${report('a')}`))).toBe(report('a'));
  });

  it('reads the encoding the document declares, and UTF-16 by its byte-order mark', () => {
    const latin1 = Buffer.from(`<?xml version="1.0" encoding="ISO-8859-1"?>${report('caf\u00e9')}`, 'latin1');
    expect(junitXmlText(latin1)).toContain('café');
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(report('ü'), 'utf16le')]);
    expect(junitXmlText(utf16)).toBe(report('ü'));
  });

  it.each([
    ['&#0;', /&#0; \(U\+0000\)/],
    ['&#x0;', /&#x0; \(U\+0000\)/],
    ['&#xD800;', /&#xD800; \(U\+D800\)/],
    ['&#55296;', /\(U\+D800\)/],
    ['&#x110000;', /\(U\+110000\)/],
    ['&#1;', /\(U\+0001\)/],
    ['&#x000000000000;', /\(U\+0000\)/],
  ])('refuses the reference %s', (reference, message) =>
    expect(refusal(Buffer.from(report(reference)))).toMatch(message),
  );

  it('refuses characters XML excludes, written as they are', () => {
    expect(refusal(Buffer.from(report('a\u0000b')))).toMatch(/U\+0000/);
    expect(refusal(Buffer.from(report('a\u0007b')))).toMatch(/U\+0007/);
  });

  it('refuses bytes that are not in the encoding', () => {
    expect(
      refusal(
        Buffer.concat([
          Buffer.from('<testsuite name="'),
          Buffer.from([0xff, 0xfe, 0xc3]),
          Buffer.from('"/>'),
        ]),
      ),
    ).toBe('The JUnit report is not valid utf-8');
    expect(refusal(Buffer.from(`<?xml version="1.0" encoding="klingon"?>${report('a')}`))).toMatch(/klingon/);
  });
});
