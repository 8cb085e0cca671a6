/** One step into the configuration: a mapping key or a list index. */
export type PathSegment = string | number;

/** `queue_rules[1].batch_size`: how every error and deprecation names its place. */
export function pathText(path: readonly PathSegment[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? segment : `.${segment}`;
  }
  return text === '' ? '(root)' : text;
}
