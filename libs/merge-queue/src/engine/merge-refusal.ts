/**
 * How a merge the code host refused goes on (§2.7, the 2022 behaviour): GitHub answers 405 "Base
 * branch was modified" when the base moved while it merged (worth trying again at once, in 5 s),
 * and names a required status check still expected or in progress when branch protection waits on
 * checks (tried again in 60 s); any other refusal dequeues the pull request.
 */
export function mergeRefusalOutcome(message: string): 'retry' | 'pending' | 'error' {
  if (/\bbase branch was modified\b/i.test(message)) return 'retry';
  if (/\brequired status checks?\b.*\b(expected|in progress|pending)\b/i.test(message)) return 'pending';
  return 'error';
}
