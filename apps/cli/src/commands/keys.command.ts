import { Command, InvalidArgumentError, Option } from 'commander';
import type { AuthCliContext } from '@switchyard/runtime';
import type { ApplicationKeyScope, CredentialSummary } from '@switchyard/auth';

/** What the key and token commands need; the CLI main opens it (storage, projections) per run. */
export type Print = (line: string) => void;

const printToStdout: Print = (line) => process.stdout.write(`${line}\n`);

const positiveInteger = (value: string): number => {
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new InvalidArgumentError('expected a positive integer');
  }
  return Number(value);
};

/** Opens the context, runs the work, always closes (the embedded store holds a lock on its data directory). */
async function withContext(
  open: () => Promise<AuthCliContext>,
  work: (context: AuthCliContext) => Promise<void>,
) {
  const context = await open();
  try {
    await work(context);
  } finally {
    await context.close();
  }
}

const describe = (credential: CredentialSummary): string =>
  [
    credential.id,
    credential.scope ?? 'token',
    `${credential.account.login} (${credential.account.id})`,
    credential.status,
    `created ${credential.createdAt.toISOString()}`,
    credential.expiresAt ? `expires ${credential.expiresAt.toISOString()}` : '',
    JSON.stringify(credential.name),
  ]
    .filter((part) => part !== '')
    .join('  ');

/**
 * `keys create|list|revoke` and `tokens issue|list|revoke`. A secret is printed exactly once, on a
 * line of its own (easy to capture in scripts), and is never stored: losing it means issuing a new
 * credential.
 */
export function registerKeyCommands(
  program: Command,
  open: () => Promise<AuthCliContext>,
  print: Print = printToStdout,
): void {
  const keys = program.command('keys').description('Manage application keys (admin or ci scope)');

  keys
    .command('create')
    .description('Create an application key and print its secret once')
    .requiredOption('--account <login>', 'account (organisation or user) the key is bound to')
    .addOption(new Option('--scope <scope>', 'admin or ci').choices(['admin', 'ci']).makeOptionMandatory())
    .option('--name <name>', 'a name to recognise the key by')
    .option(
      '--account-id <id>',
      "the account's numeric code-host id (default: derived from the login)",
      positiveInteger,
    )
    .action(
      async (options: { account: string; scope: ApplicationKeyScope; name?: string; accountId?: number }) =>
        withContext(open, async ({ keys: service }) => {
          const { id, secret } = await service.createApplicationKey({
            accountLogin: options.account,
            accountId: options.accountId,
            scope: options.scope,
            name: options.name,
          });
          print(`Created ${options.scope} key ${id} for ${options.account}. Its secret (shown only now):`);
          print(secret);
        }),
    );

  keys
    .command('list')
    .description('List application keys (secrets are never stored, so never shown)')
    .action(async () =>
      withContext(open, async ({ keys: service }) => {
        const all = await service.listApplicationKeys();
        if (all.length === 0) print('No application keys.');
        for (const key of all) print(describe(key));
      }),
    );

  keys
    .command('revoke')
    .description('Revoke an application key')
    .argument('<id>', 'key id')
    .action(async (id: string) =>
      withContext(open, async ({ keys: service }) => {
        const { revoked } = await service.revokeApplicationKey(id);
        print(revoked ? `Revoked key ${id}.` : `Key ${id} was already revoked.`);
      }),
    );

  const tokens = program.command('tokens').description('Manage service tokens');

  tokens
    .command('issue')
    .description('Issue a service token and print its secret once')
    .requiredOption('--account <login>', 'account the token may act for')
    .option('--name <name>', 'a name to recognise the token by')
    .option(
      '--account-id <id>',
      "the account's numeric code-host id (default: derived from the login)",
      positiveInteger,
    )
    .option('--ttl-days <days>', 'lifetime in days (default: until revoked)', positiveInteger)
    .action(async (options: { account: string; name?: string; accountId?: number; ttlDays?: number }) =>
      withContext(open, async ({ tokens: service }) => {
        const { id, secret, expiresAt } = await service.issueServiceToken({
          accountLogin: options.account,
          accountId: options.accountId,
          name: options.name,
          ttlDays: options.ttlDays,
        });
        const lifetime = expiresAt ? `, expires ${expiresAt.toISOString()}` : '';
        print(`Issued service token ${id} for ${options.account}${lifetime}. Its secret (shown only now):`);
        print(secret);
      }),
    );

  tokens
    .command('list')
    .description('List service tokens')
    .action(async () =>
      withContext(open, async ({ tokens: service }) => {
        const all = await service.listServiceTokens();
        if (all.length === 0) print('No service tokens.');
        for (const token of all) print(describe(token));
      }),
    );

  tokens
    .command('revoke')
    .description('Revoke a service token')
    .argument('<id>', 'token id')
    .action(async (id: string) =>
      withContext(open, async ({ tokens: service }) => {
        const { revoked } = await service.revokeServiceToken(id);
        print(revoked ? `Revoked token ${id}.` : `Token ${id} was already revoked.`);
      }),
    );
}
