/** Where a JSON text stops being valid, and why, in Python's json wording (FastAPI's decoder). */
export interface JsonSyntaxError {
  /** Offset in code points (Python counts characters, not UTF-16 units). */
  position: number;
  reason: string;
}

/**
 * FastAPI reports the decoder's position in `loc` (`["body", 5]`), and V8's SyntaxError messages
 * only sometimes carry one, so a small recursive-descent scan finds it. Run only after JSON.parse
 * failed; returns null when the text is valid JSON.
 */
export function findJsonSyntaxError(text: string): JsonSyntaxError | null {
  const chars = [...text];
  let at = 0;

  const fail = (reason: string, position = at): never => {
    throw new JsonScanStop({ position, reason });
  };
  const isWhitespace = (char: string | undefined) =>
    char === ' ' || char === '\t' || char === '\n' || char === '\r';
  const isDigit = (char: string | undefined) => char !== undefined && char >= '0' && char <= '9';
  const skipWhitespace = () => {
    while (isWhitespace(chars[at])) at++;
  };
  const expect = (char: string, reason: string) => {
    if (chars[at] !== char) fail(reason);
    at++;
  };
  const literal = (word: string) => {
    const start = at;
    for (const char of word) {
      if (chars[at] !== char) fail('Expecting value', start);
      at++;
    }
  };
  const string = () => {
    const start = at;
    at++;
    for (;;) {
      const char = chars[at];
      if (char === undefined) fail('Unterminated string starting at', start);
      if (char === '"') break;
      if (char! < ' ') fail('Invalid control character at');
      if (char === '\\') {
        const escaped = chars[at + 1];
        if (escaped === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(chars.slice(at + 2, at + 6).join(''))) fail('Invalid \\uXXXX escape');
          at += 6;
          continue;
        }
        if (escaped === undefined || !'"\\/bfnrt'.includes(escaped)) fail('Invalid \\escape');
        at += 2;
        continue;
      }
      at++;
    }
    at++;
  };
  const digits = () => {
    if (!isDigit(chars[at])) fail('Expecting value');
    while (isDigit(chars[at])) at++;
  };
  const number = () => {
    if (chars[at] === '-') at++;
    if (chars[at] === '0') at++;
    else digits();
    if (chars[at] === '.') {
      at++;
      digits();
    }
    if (chars[at] === 'e' || chars[at] === 'E') {
      at++;
      if (chars[at] === '+' || chars[at] === '-') at++;
      digits();
    }
  };
  const member = () => {
    if (chars[at] !== '"') fail('Expecting property name enclosed in double quotes');
    string();
    skipWhitespace();
    expect(':', "Expecting ':' delimiter");
    value();
  };
  const sequence = (close: string, item: () => void) => {
    at++;
    skipWhitespace();
    if (chars[at] === close) {
      at++;
      return;
    }
    for (;;) {
      item();
      skipWhitespace();
      if (chars[at] === close) {
        at++;
        return;
      }
      expect(',', "Expecting ',' delimiter");
      skipWhitespace();
    }
  };
  const value = (): void => {
    skipWhitespace();
    const char = chars[at];
    if (char === '{') sequence('}', member);
    else if (char === '[') sequence(']', value);
    else if (char === '"') string();
    else if (char === 't') literal('true');
    else if (char === 'f') literal('false');
    else if (char === 'n') literal('null');
    else if (char === '-' || isDigit(char)) number();
    else fail('Expecting value');
  };

  try {
    value();
    skipWhitespace();
    if (at < chars.length) fail('Extra data');
    return null;
  } catch (error) {
    if (error instanceof JsonScanStop) return error.found;
    throw error;
  }
}

class JsonScanStop {
  constructor(readonly found: JsonSyntaxError) {}
}
