/** The operators of the condition language, in their canonical spelling. */
export type Operator = '=' | '!=' | '~=' | '*=' | '>=' | '>' | '<=' | '<';

/** Every spelling users may write, longest first so `>=` is read before `>` and `==` before `=`. */
const SPELLINGS: readonly [string, Operator][] = [
  ['==', '='],
  ['!=', '!='],
  ['~=', '~='],
  ['*=', '*='],
  ['>=', '>='],
  ['<=', '<='],
  ['=', '='],
  [':', '='],
  ['≠', '!='],
  ['≥', '>='],
  ['≤', '<='],
  ['>', '>'],
  ['<', '<'],
];

/** The operator at the start of `text`, with how many characters it took; null when there is none. */
export function readOperator(text: string): { operator: Operator; width: number } | null {
  for (const [spelling, operator] of SPELLINGS) {
    if (text.startsWith(spelling)) return { operator, width: spelling.length };
  }
  return null;
}

/** A character that can start an operator: what may follow an attribute name directly. */
export const startsOperator = (character: string): boolean =>
  SPELLINGS.some(([spelling]) => spelling.startsWith(character));

export const isOrdering = (operator: Operator): boolean =>
  operator === '>=' || operator === '>' || operator === '<=' || operator === '<';
