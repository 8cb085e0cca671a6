import { badRequest } from '@switchyard/kernel';

/**
 * A JUnit report's bytes as text, refused (400) unless they are what XML 1.0 allows: bytes that
 * decode in the document's encoding (a byte-order mark, else the declaration's `encoding`, else
 * UTF-8), and characters, written or referenced (`&#0;`, `&#xD800;`), all XML characters, so no NUL
 * or lone surrogate reaches a test's name or message.
 */
export function junitXmlText(bytes: Uint8Array): string {
  const encoding = encodingOf(bytes);
  let text: string;
  try {
    text = new TextDecoder(encoding, { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch (error) {
    if (error instanceof RangeError)
      throw badRequest(`The JUnit report's encoding, ${encoding}, is not one we read`);
    throw badRequest(`The JUnit report is not valid ${encoding}`);
  }
  const raw = NOT_XML_CHARACTER.exec(text);
  if (raw) throw notXml(`the character ${codePointText(raw[0].codePointAt(0)!)} at offset ${raw.index}`);
  for (const reference of text.matchAll(CHARACTER_REFERENCE)) {
    const codePoint = reference[1] !== undefined ? parseInt(reference[1], 16) : Number(reference[2]);
    if (!isXmlCharacter(codePoint))
      throw notXml(
        `the character reference ${reference[0]} (${codePointText(codePoint)}) at offset ${reference.index}`,
      );
  }
  return text;
}

/** XML 1.0 §2.2: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]. */
const isXmlCharacter = (codePoint: number): boolean =>
  codePoint === 0x9 ||
  codePoint === 0xa ||
  codePoint === 0xd ||
  (codePoint >= 0x20 && codePoint <= 0xd7ff) ||
  (codePoint >= 0xe000 && codePoint <= 0xfffd) ||
  (codePoint >= 0x10000 && codePoint <= 0x10ffff);

const NOT_XML_CHARACTER =
  // eslint-disable-next-line no-control-regex -- the control characters XML 1.0 excludes are what this finds.
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const CHARACTER_REFERENCE = /&#(?:x([0-9A-Fa-f]+)|([0-9]+));/g;

const codePointText = (codePoint: number) => `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;

const notXml = (what: string) =>
  badRequest(`The JUnit report is not well-formed XML: ${what} is not allowed`);

function encodingOf(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  const declaration = /^<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z][A-Za-z0-9._-]*)["']/.exec(
    Buffer.from(bytes.subarray(0, 200)).toString('latin1'),
  );
  return declaration ? declaration[1]!.toLowerCase() : 'utf-8';
}
