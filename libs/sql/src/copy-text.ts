/** Characters COPY's text format gives a meaning to; each must travel backslash-escaped. */
const SPECIAL = /[\\\n\r\t]/;
const EVERY_SPECIAL = new RegExp(SPECIAL.source, 'g');
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** One value of a COPY text-format row: null as \N, anything else as its text, escaped. */
export function copyField(value: string | number | bigint | null): string {
  if (value === null) return '\\N';
  if (typeof value !== 'string') return String(value);
  return SPECIAL.test(value) ? value.replace(EVERY_SPECIAL, (c) => ESCAPES[c]!) : value;
}

/** One row of COPY's text format, newline included: copyFrom takes a run of these. */
export const copyLine = (fields: readonly (string | number | bigint | null)[]): string =>
  `${fields.map(copyField).join('\t')}\n`;

/** An int8[]/int4[] value as COPY reads it: `{1,2,3}`. */
export const copyIntArray = (values: readonly (number | bigint)[]): string => `{${values.join(',')}}`;

/** The COPY statement for a table and its columns, with the source a dialect reads from. */
export const copyStatement = (table: string, columns: readonly string[], source: string): string =>
  `COPY ${table} (${columns.join(', ')}) FROM ${source}`;
