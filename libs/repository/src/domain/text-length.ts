/**
 * Length limits count Unicode code points, as pydantic and the CLI do; `String.length` counts UTF-16
 * units and would refuse an emoji-heavy reason that the client accepted.
 */
export const codePointLength = (text: string): number => {
  let count = 0;
  for (const _ of text) count++;
  return count;
};
