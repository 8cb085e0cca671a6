import { isStorableDateTime } from '@switchyard/code-host';

/** An error answered in GitHub's shape: `{message, documentation_url}` (+ `errors` on 422). */
export class GitHubApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: ReadonlyArray<Record<string, unknown>>,
  ) {
    super(message);
  }

  static notFound(): GitHubApiError {
    return new GitHubApiError(404, 'Not Found');
  }

  static unprocessable(message: string, errors?: ReadonlyArray<Record<string, unknown>>): GitHubApiError {
    return new GitHubApiError(422, message, errors);
  }

  static conflict(message: string): GitHubApiError {
    return new GitHubApiError(409, message);
  }

  body(): { message: string; documentation_url: string; status: string; errors?: unknown[] } {
    return {
      message: this.message,
      documentation_url: 'https://docs.github.com/rest',
      status: String(this.status),
      ...(this.errors ? { errors: [...this.errors] } : {}),
    };
  }
}

/** Reads an optional string field of a request body, refusing other types as GitHub does. */
export function optionalString(body: Record<string, unknown>, field: string): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string')
    throw GitHubApiError.unprocessable(
      `Invalid request.\n\nFor '${field}', ${JSON.stringify(value)} is not a string.`,
    );
  return value;
}

export function requiredString(body: Record<string, unknown>, field: string): string {
  const value = optionalString(body, field);
  if (value === undefined)
    throw GitHubApiError.unprocessable(`Invalid request.\n\n"${field}" wasn't supplied.`);
  return value;
}

export function optionalBoolean(body: Record<string, unknown>, field: string): boolean | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean')
    throw GitHubApiError.unprocessable(
      `Invalid request.\n\nFor '${field}', ${JSON.stringify(value)} is not a boolean.`,
    );
  return value;
}

export function stringList(body: Record<string, unknown>, field: string): string[] | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string'))
    throw GitHubApiError.unprocessable(
      `Invalid request.\n\nFor '${field}', ${JSON.stringify(value)} is not an array of strings.`,
    );
  return value as string[];
}

/**
 * An optional time (`started_at`, `completed_at`): ISO 8601 as GitHub asks, with an offset, in
 * years 1 to 9999 (what every store holds and the webhook door lets through), else 422.
 */
export function optionalDateTime(body: Record<string, unknown>, field: string): string | undefined {
  const value = optionalString(body, field);
  if (value !== undefined && !isStorableDateTime(value))
    throw GitHubApiError.unprocessable(
      `Invalid request.\n\nFor '${field}', ${JSON.stringify(value)} is not a date-time (YYYY-MM-DDTHH:MM:SSZ, years 1 to 9999).`,
    );
  return value;
}
