/** RFC 3339 with a `Z` offset, which every client parses; millisecond precision. */
export const toRfc3339 = (at: Date): string => at.toISOString();

export const toRfc3339OrNull = (at: Date | null | undefined): string | null => (at ? at.toISOString() : null);
