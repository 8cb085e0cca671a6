import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { SqlQueryable } from '@switchyard/sql';
import { SandboxStore } from './store/sandbox-store';

const SERVICE_TOKEN_KEY = 'service_token';

/**
 * The token the service's own code host presents to the sandbox forge, acting as the App's bot.
 * It is generated on first use and kept in the sandbox's tables, so the engine can drive the forge
 * on a first start without SWITCHYARD_ADMIN_KEY (the printed bootstrap key is only ever stored
 * hashed) and across restarts. Call after the sandbox schema exists.
 */
export function sandboxServiceToken(sql: SqlQueryable): Promise<string> {
  return new SandboxStore(sql).settingOrInsert(SERVICE_TOKEN_KEY, `sys_${randomBytes(24).toString('hex')}`);
}

/** Whether `token` is the sandbox's service token (constant-time comparison). */
export async function isSandboxServiceToken(sql: SqlQueryable, token: string): Promise<boolean> {
  if (!token.startsWith('sys_')) return false;
  const expected = Buffer.from(await sandboxServiceToken(sql));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
