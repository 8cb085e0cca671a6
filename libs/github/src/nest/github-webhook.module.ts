import { Module } from '@nestjs/common';
import type { CommandService } from '@switchyard/event-store/application';
import { APP_CONFIG, COMMAND_SERVICE, SQL_EXECUTOR, type SwitchyardConfig } from '@switchyard/platform';
import { sandboxWebhookSecret } from '@switchyard/sandbox-forge';
import type { SqlExecutor } from '@switchyard/sql';
import { GitHubWebhookIntake } from '../webhooks/application/github-webhook-intake';
import { WEBHOOK_SECRET_SOURCE, type WebhookSecretSource } from '../webhooks/application/webhook-secret';
import { GitHubWebhookController } from '../webhooks/http/github-webhook.controller';

/**
 * `POST /webhooks/github` in the HTTP app (always mounted): GitHub's deliveries, or the sandbox
 * forge's, pass the webhook door and are recorded as facts.
 */
@Module({
  controllers: [GitHubWebhookController],
  providers: [
    {
      provide: WEBHOOK_SECRET_SOURCE,
      useFactory: (config: SwitchyardConfig, sql: SqlExecutor): WebhookSecretSource => {
        // Sandbox mode without a configured secret: the one the forge generated and keeps in SQL.
        let sandboxSecret: Promise<string> | null = null;
        return {
          secret: async () =>
            config.github.mode === 'github'
              ? config.github.webhookSecret
              : (sandboxSecret ??= sandboxWebhookSecret(sql, config.github.webhookSecret).catch(
                  (error: unknown) => {
                    sandboxSecret = null;
                    throw error;
                  },
                )),
        };
      },
      inject: [APP_CONFIG, SQL_EXECUTOR],
    },
    {
      provide: GitHubWebhookIntake,
      useFactory: (commands: CommandService, secrets: WebhookSecretSource) =>
        new GitHubWebhookIntake(commands, secrets),
      inject: [COMMAND_SERVICE, WEBHOOK_SECRET_SOURCE],
    },
  ],
  exports: [WEBHOOK_SECRET_SOURCE],
})
export class GitHubWebhookModule {}
