/**
 * Where the intake finds the secret GitHub signs deliveries with: the App's webhook secret in
 * GitHub mode; in sandbox mode the configured one, else the one the sandbox forge generated and
 * keeps with its state.
 */
export interface WebhookSecretSource {
  /** null: no secret known, so no delivery can be verified (every one answers 401). */
  secret(): Promise<string | null>;
}

export const WEBHOOK_SECRET_SOURCE = Symbol('WEBHOOK_SECRET_SOURCE');
