import { ApiError } from '../api';

/** An API refusal as the page shows it: its status and the API's own detail. */
export function Problem({ error }: { error: unknown }) {
  const text =
    error instanceof ApiError
      ? error.status === 403
        ? `Refused (403): ${error.detail}`
        : `${error.status}: ${error.detail}`
      : String(error);
  return (
    <p class="error" role="alert">
      {text}
    </p>
  );
}
