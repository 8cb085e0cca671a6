import { readFileSync } from 'node:fs';

type Env = (name: string) => string | undefined;

/**
 * How Switchyard reaches its code host. With a GitHub App configured it drives github.com or
 * GitHub Enterprise Server (`github`); without one it drives the sandbox forge it serves itself
 * (`sandbox`), authenticating with the admin key.
 */
export type GitHubSettings =
  | {
      mode: 'github';
      appId: number;
      /** PEM, as GitHub hands it out when the App's key is generated. */
      privateKey: string;
      webhookSecret: string;
      /** REST base URL: https://api.github.com, or https://<ghes-host>/api/v3. */
      apiUrl: string;
    }
  | {
      mode: 'sandbox';
      /** null: the sandbox generates one and keeps it with its state. */
      webhookSecret: string | null;
      /** null: the service's own `/sandbox/github`. */
      apiUrl: string | null;
    };

export const GITHUB_DOT_COM_API_URL = 'https://api.github.com';

/**
 * SWITCHYARD_GITHUB_APP_ID, SWITCHYARD_GITHUB_PRIVATE_KEY (or _FILE), SWITCHYARD_GITHUB_WEBHOOK_SECRET,
 * SWITCHYARD_GITHUB_API_URL. A half-configured App (an ID without a key, a key without an ID, an
 * App without a webhook secret) is refused at start-up rather than silently falling back to the sandbox.
 */
export function readGitHubSettings(value: Env, problems: string[]): GitHubSettings {
  const appIdRaw = value('SWITCHYARD_GITHUB_APP_ID');
  const privateKey = readPrivateKey(value, problems);
  const webhookSecret = value('SWITCHYARD_GITHUB_WEBHOOK_SECRET') ?? null;
  const apiUrl = readApiUrl(value('SWITCHYARD_GITHUB_API_URL'), problems);

  if (appIdRaw === undefined && privateKey === undefined) return { mode: 'sandbox', webhookSecret, apiUrl };

  if (appIdRaw === undefined)
    problems.push(
      'SWITCHYARD_GITHUB_PRIVATE_KEY is set but SWITCHYARD_GITHUB_APP_ID is not: set both for GitHub mode, or neither for sandbox mode',
    );
  if (privateKey === undefined)
    problems.push(
      'SWITCHYARD_GITHUB_APP_ID is set but SWITCHYARD_GITHUB_PRIVATE_KEY (or _FILE) is not: set both for GitHub mode, or neither for sandbox mode',
    );
  const appId = appIdRaw !== undefined && /^\d{1,15}$/.test(appIdRaw) ? Number(appIdRaw) : null;
  if (appIdRaw !== undefined && (appId === null || appId < 1))
    problems.push(`SWITCHYARD_GITHUB_APP_ID must be the App's numeric ID, got "${appIdRaw}"`);
  if (webhookSecret === null)
    problems.push("GitHub mode needs SWITCHYARD_GITHUB_WEBHOOK_SECRET, the secret set on the App's webhook");
  return {
    mode: 'github',
    appId: appId ?? 0,
    privateKey: privateKey ?? '',
    webhookSecret: webhookSecret ?? '',
    apiUrl: apiUrl ?? GITHUB_DOT_COM_API_URL,
  };
}

function readPrivateKey(value: Env, problems: string[]): string | undefined {
  const inline = value('SWITCHYARD_GITHUB_PRIVATE_KEY');
  const file = value('SWITCHYARD_GITHUB_PRIVATE_KEY_FILE');
  if (inline && file) {
    problems.push('set SWITCHYARD_GITHUB_PRIVATE_KEY or SWITCHYARD_GITHUB_PRIVATE_KEY_FILE, not both');
    return undefined;
  }
  let pem = inline;
  if (file) {
    try {
      pem = readFileSync(file, 'utf8');
    } catch (error) {
      problems.push(`SWITCHYARD_GITHUB_PRIVATE_KEY_FILE cannot be read: ${(error as Error).message}`);
      return '';
    }
  }
  if (pem === undefined) return undefined;
  // Environments often carry a PEM on one line with literal "\n" separators.
  const normalized = pem.includes('\\n') ? pem.replace(/\\n/g, '\n') : pem;
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(normalized))
    problems.push('SWITCHYARD_GITHUB_PRIVATE_KEY must be the PEM private key GitHub generated for the App');
  return normalized.trim() + '\n';
}

function readApiUrl(raw: string | undefined, problems: string[]): string | null {
  if (raw === undefined) return null;
  try {
    const parsed = new URL(raw);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
      problems.push('SWITCHYARD_GITHUB_API_URL must start with https:// or http://');
  } catch {
    problems.push('SWITCHYARD_GITHUB_API_URL is not a valid URL');
  }
  return raw.replace(/\/+$/, '');
}
