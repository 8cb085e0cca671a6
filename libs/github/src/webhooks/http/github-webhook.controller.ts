import {
  BadRequestException,
  Controller,
  Headers,
  HttpCode,
  HttpStatus,
  Inject,
  Logger,
  Post,
  UnauthorizedException,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Body, Public, RawJsonBody, RefusedInputs } from '@switchyard/http';
import { GitHubWebhookIntake } from '../application/github-webhook-intake';

export interface WebhookAnswer {
  /** recorded: new facts stored; duplicate: this delivery id was recorded before; ignored: nothing relevant. */
  status: 'recorded' | 'duplicate' | 'ignored';
}

/** The door's name in /readyz's count of refused inputs. */
export const REFUSED_DELIVERIES = 'webhook_deliveries';

/**
 * GitHub's webhook deliveries (the App's webhook URL, or the sandbox forge's). Not part of the v1
 * API: authenticated by the signature, not by a key, and answered 202 once the facts are stored.
 * A signed delivery the intake cannot read answers 400 naming the field, is logged with its
 * delivery id and counted in /readyz (`refused input`): GitHub shows it among failed deliveries.
 */
@ApiExcludeController()
@Public()
@Controller('webhooks/github')
export class GitHubWebhookController {
  private readonly logger = new Logger('GitHubWebhooks');

  constructor(
    @Inject(GitHubWebhookIntake) private readonly intake: GitHubWebhookIntake,
    @Inject(RefusedInputs) private readonly refused: RefusedInputs,
  ) {}

  @Post()
  @RawJsonBody()
  @HttpCode(HttpStatus.ACCEPTED)
  async receive(
    @Body() body: unknown,
    @Headers('x-github-event') eventName: string | undefined,
    @Headers('x-github-delivery') deliveryId: string | undefined,
    @Headers('x-hub-signature-256') signature: string | undefined,
  ): Promise<WebhookAnswer> {
    const rawBody = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
    const outcome = await this.intake.receive({ eventName, deliveryId, signature, rawBody });
    switch (outcome.status) {
      case 'unauthorized':
        throw new UnauthorizedException('The X-Hub-Signature-256 signature is missing or does not match');
      case 'invalid': {
        const count = this.refused.count(REFUSED_DELIVERIES);
        this.logger.warn(
          `Refused GitHub delivery ${deliveryId ?? '(no id)'} (${eventName ?? 'no event'}), ${count} since start: ${outcome.detail}`,
        );
        throw new BadRequestException(outcome.detail);
      }
      case 'recorded':
        return { status: 'recorded' };
      default:
        return { status: outcome.status };
    }
  }
}
