import { createHmac, randomBytes } from 'node:crypto';
import type { SqlExecutor } from '@switchyard/sql';
import { SandboxStore } from '../store/sandbox-store';

/** `X-Hub-Signature-256` as GitHub computes it: HMAC-SHA256 of the raw body with the webhook secret. */
export const signatureSha256 = (secret: string, body: string): string =>
  `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;

/** The legacy `X-Hub-Signature` (HMAC-SHA1), which GitHub still sends beside it. */
export const signatureSha1 = (secret: string, body: string): string =>
  `sha1=${createHmac('sha1', secret).update(body, 'utf8').digest('hex')}`;

const SECRET_KEY = 'webhook_secret';

/**
 * The secret the sandbox signs its deliveries with, which the webhook intake verifies: the
 * configured SWITCHYARD_GITHUB_WEBHOOK_SECRET, else one generated on first start and kept in the
 * sandbox's tables so it survives restarts. Call after the sandbox schema exists.
 */
export async function sandboxWebhookSecret(
  executor: SqlExecutor,
  configured: string | null,
): Promise<string> {
  if (configured) return configured;
  return new SandboxStore(executor).settingOrInsert(SECRET_KEY, randomBytes(32).toString('hex'));
}
