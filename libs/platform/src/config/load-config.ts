import { readFileSync } from 'node:fs';
import { DEFAULT_SESSION_LIMITS } from '@switchyard/sql';
import { ConfigError } from './config-error';
import { readGitHubSettings } from './github-settings';
import type { HostTokenGrant, SwitchyardConfig } from './switchyard-config';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const LOG_FORMATS = ['auto', 'pretty', 'json'] as const;
const OWNER = /^[a-zA-Z0-9-]{1,40}$/;

type Env = Record<string, string | undefined>;

/**
 * Reads the documented variables (names are a public contract: scripts rely on them):
 * PORT, HOST, SWITCHYARD_DATA_DIR, DATABASE_URL, EVENTSTORE_URL, REDIS_URL, SWITCHYARD_ACCOUNT,
 * SWITCHYARD_ACCOUNT_ID, SWITCHYARD_ADMIN_KEY, SWITCHYARD_HOST_TOKENS, SWITCHYARD_HOST_TOKENS_FILE,
 * LOG_LEVEL, LOG_FORMAT, SWITCHYARD_TRUST_PROXY, SWITCHYARD_READ_YOUR_WRITES_TIMEOUT_MS,
 * SWITCHYARD_DB_STATEMENT_TIMEOUT_MS, SWITCHYARD_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
 * SWITCHYARD_GITHUB_APP_ID, SWITCHYARD_GITHUB_PRIVATE_KEY(_FILE), SWITCHYARD_GITHUB_WEBHOOK_SECRET,
 * SWITCHYARD_GITHUB_API_URL (see github-settings.ts), SWITCHYARD_SANDBOX_CI_SECONDS,
 * SWITCHYARD_SANDBOX_WEBHOOK_URL, SWITCHYARD_ADVERTISED_URL.
 */
export function loadConfig(env: Env = process.env): SwitchyardConfig {
  const problems: string[] = [];
  const value = (name: string): string | undefined => {
    const raw = env[name];
    return raw === undefined || raw.trim() === '' ? undefined : raw.trim();
  };

  const port = integer(value('PORT') ?? '8080', 'PORT', 0, 65535, problems);
  const databaseUrl = url(value('DATABASE_URL'), 'DATABASE_URL', ['postgres:', 'postgresql:'], problems);
  const eventStoreUrl = url(
    value('EVENTSTORE_URL'),
    'EVENTSTORE_URL',
    ['esdb:', 'esdb+discover:', 'kurrentdb:'],
    problems,
  );
  const redisUrl = url(value('REDIS_URL'), 'REDIS_URL', ['redis:', 'rediss:'], problems);

  const login = value('SWITCHYARD_ACCOUNT') ?? 'local';
  if (!OWNER.test(login))
    problems.push(`SWITCHYARD_ACCOUNT must be 1-40 letters, digits or '-', got "${login}"`);
  const accountIdRaw = value('SWITCHYARD_ACCOUNT_ID');
  const accountId =
    accountIdRaw === undefined
      ? null
      : integer(accountIdRaw, 'SWITCHYARD_ACCOUNT_ID', 1, 2 ** 53 - 1, problems);

  const adminKey = value('SWITCHYARD_ADMIN_KEY') ?? null;
  if (adminKey !== null && [...adminKey].length < 16)
    problems.push('SWITCHYARD_ADMIN_KEY must be at least 16 characters');

  const logLevel = (value('LOG_LEVEL') ?? 'info') as SwitchyardConfig['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const logFormat = (value('LOG_FORMAT') ?? 'auto') as SwitchyardConfig['logFormat'];
  if (!LOG_FORMATS.includes(logFormat))
    problems.push(`LOG_FORMAT must be one of ${LOG_FORMATS.join(', ')}, got "${logFormat}"`);

  const trustProxy = boolean(value('SWITCHYARD_TRUST_PROXY') ?? 'false', 'SWITCHYARD_TRUST_PROXY', problems);
  const readYourWritesTimeoutMs = integer(
    value('SWITCHYARD_READ_YOUR_WRITES_TIMEOUT_MS') ?? '5000',
    'SWITCHYARD_READ_YOUR_WRITES_TIMEOUT_MS',
    0,
    600_000,
    problems,
  );
  const databaseLimits = {
    statementTimeoutMs: integer(
      value('SWITCHYARD_DB_STATEMENT_TIMEOUT_MS') ?? String(DEFAULT_SESSION_LIMITS.statementTimeoutMs),
      'SWITCHYARD_DB_STATEMENT_TIMEOUT_MS',
      0,
      3_600_000,
      problems,
    ),
    idleInTransactionTimeoutMs: integer(
      value('SWITCHYARD_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS') ??
        String(DEFAULT_SESSION_LIMITS.idleInTransactionTimeoutMs),
      'SWITCHYARD_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS',
      0,
      3_600_000,
      problems,
    ),
  };
  const hostTokens = readHostTokens(
    value('SWITCHYARD_HOST_TOKENS'),
    value('SWITCHYARD_HOST_TOKENS_FILE'),
    problems,
  );

  const github = readGitHubSettings(value, problems);
  const sandboxCiSeconds = integer(
    value('SWITCHYARD_SANDBOX_CI_SECONDS') ?? '5',
    'SWITCHYARD_SANDBOX_CI_SECONDS',
    0,
    86_400,
    problems,
  );
  const sandboxWebhookUrl = url(
    value('SWITCHYARD_SANDBOX_WEBHOOK_URL'),
    'SWITCHYARD_SANDBOX_WEBHOOK_URL',
    ['http:', 'https:'],
    problems,
  );

  const advertisedUrl = url(
    value('SWITCHYARD_ADVERTISED_URL'),
    'SWITCHYARD_ADVERTISED_URL',
    ['http:', 'https:'],
    problems,
  );

  if (problems.length) throw new ConfigError(problems);
  return {
    port,
    host: value('HOST') ?? '0.0.0.0',
    dataDir: value('SWITCHYARD_DATA_DIR') ?? './.switchyard',
    databaseUrl,
    eventStoreUrl,
    redisUrl,
    account: { login, id: accountId },
    adminKey,
    hostTokens,
    logLevel,
    logFormat,
    trustProxy,
    readYourWritesTimeoutMs,
    databaseLimits,
    github,
    sandboxCiSeconds,
    sandboxWebhookUrl,
    advertisedUrl: advertisedUrl?.replace(/\/+$/, '') ?? null,
  };
}

function integer(raw: string, name: string, min: number, max: number, problems: string[]): number {
  const parsed = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
    problems.push(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
    return min;
  }
  return parsed;
}

function boolean(raw: string, name: string, problems: string[]): boolean {
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  problems.push(`${name} must be true or false, got "${raw}"`);
  return false;
}

function url(raw: string | undefined, name: string, protocols: string[], problems: string[]): string | null {
  if (raw === undefined) return null;
  try {
    const parsed = new URL(raw);
    if (!protocols.includes(parsed.protocol)) {
      problems.push(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
    }
  } catch {
    problems.push(`${name} is not a valid URL`);
  }
  return raw;
}

function readHostTokens(
  inline: string | undefined,
  file: string | undefined,
  problems: string[],
): Record<string, HostTokenGrant> {
  if (inline && file) {
    problems.push('set SWITCHYARD_HOST_TOKENS or SWITCHYARD_HOST_TOKENS_FILE, not both');
    return {};
  }
  let text = inline;
  const source = file ? 'SWITCHYARD_HOST_TOKENS_FILE' : 'SWITCHYARD_HOST_TOKENS';
  if (file) {
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      problems.push(`SWITCHYARD_HOST_TOKENS_FILE cannot be read: ${(error as Error).message}`);
      return {};
    }
  }
  if (!text) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    problems.push(`${source} is not valid JSON`);
    return {};
  }
  if (!isRecord(parsed)) {
    problems.push(`${source} must be a JSON object mapping token -> {user: {id, login}, accounts: [login]}`);
    return {};
  }
  const grants: Record<string, HostTokenGrant> = {};
  for (const [token, grant] of Object.entries(parsed)) {
    const user = isRecord(grant) && isRecord(grant.user) ? grant.user : null;
    const accounts = isRecord(grant) ? grant.accounts : null;
    if (
      !user ||
      typeof user.id !== 'number' ||
      typeof user.login !== 'string' ||
      !Array.isArray(accounts) ||
      !accounts.every((a) => typeof a === 'string')
    ) {
      problems.push(
        `${source}: the grant for token "${token.slice(0, 4)}…" must be {user: {id, login}, accounts: [login]}`,
      );
      continue;
    }
    grants[token] = { user: { id: user.id, login: user.login }, accounts: accounts as string[] };
  }
  return grants;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
