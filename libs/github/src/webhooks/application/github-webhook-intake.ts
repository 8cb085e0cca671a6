import { Webhooks } from '@octokit/webhooks';
import type { CommandService } from '@switchyard/event-store/application';
import { DeliverySchemas } from '../door/delivery-schemas';
import { factsOfDelivery } from '../facts/facts-of-delivery';
import type { WebhookSecretSource } from './webhook-secret';

export interface WebhookDelivery {
  /** `X-GitHub-Event` */
  eventName: string | undefined;
  /** `X-GitHub-Delivery` */
  deliveryId: string | undefined;
  /** `X-Hub-Signature-256` */
  signature: string | undefined;
  rawBody: Buffer;
}

export type IntakeOutcome =
  | { status: 'recorded'; streamId: string; position: string }
  | { status: 'duplicate' }
  | { status: 'ignored' }
  | { status: 'unauthorized' }
  | { status: 'invalid'; detail: string };

/** GitHub's delivery ids are UUIDs; anything longer than this is not one. */
const MAX_DELIVERY_ID_LENGTH = 100;

/**
 * Verifies a delivery, checks what the intake reads of it against GitHub's published schema (a
 * delivery that does not match is refused whole: nothing malformed becomes a fact, and no fact
 * can then stop a processor), then records its facts and returns: the work they cause (re-reading
 * the pull request, checking a commenter's permission) is done by processors, so GitHub gets its
 * answer well within its 10 seconds. The delivery id is the idempotency key, so a redelivery
 * (GitHub's or an attacker's replay) records nothing twice, across restarts too.
 *
 * It runs in an HTTP request, not in a processor: there is no ownership to fence. Its facts go
 * through CommandService.record, the command path's way to store facts from outside: a delivery is
 * what happened on GitHub, with nothing in its stream to decide.
 */
export class GitHubWebhookIntake {
  /** Rebuilt only when the secret changes (configuration), never per request. */
  private verifier: { secret: string; webhooks: Webhooks } | null = null;
  private readonly schemas = new DeliverySchemas();

  constructor(
    private readonly commands: CommandService,
    private readonly secrets: WebhookSecretSource,
  ) {}

  async receive(delivery: WebhookDelivery): Promise<IntakeOutcome> {
    const secret = await this.secrets.secret();
    if (!secret || !delivery.signature) return { status: 'unauthorized' };
    // Octokit verifies no empty payload; GitHub never sends one, signed or not.
    if (delivery.rawBody.length === 0) return { status: 'invalid', detail: 'The delivery body is empty' };
    if (!(await this.verifies(secret, delivery))) return { status: 'unauthorized' };
    if (!delivery.eventName) return { status: 'invalid', detail: 'X-GitHub-Event header is missing' };
    if (!delivery.deliveryId) return { status: 'invalid', detail: 'X-GitHub-Delivery header is missing' };
    if (delivery.deliveryId.length > MAX_DELIVERY_ID_LENGTH)
      return {
        status: 'invalid',
        detail: `X-GitHub-Delivery is longer than ${MAX_DELIVERY_ID_LENGTH} characters`,
      };

    let payload: unknown;
    try {
      payload = JSON.parse(delivery.rawBody.toString('utf8'));
    } catch {
      return { status: 'invalid', detail: 'The delivery body is not JSON' };
    }
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
      return { status: 'invalid', detail: 'The delivery body is not a JSON object' };

    const check = this.schemas.check(delivery.eventName, payload);
    if (!check.ok)
      return {
        status: 'invalid',
        detail: `The ${delivery.eventName} delivery does not match GitHub's schema: \`${check.field}\` ${check.problem}`,
      };
    const facts = factsOfDelivery(delivery.eventName, payload as Record<string, unknown>);
    if (!facts) return { status: 'ignored' };
    const outcome = await this.commands.record(
      facts.streamId,
      facts.events,
      { deliveryId: delivery.deliveryId, githubEvent: delivery.eventName },
      { idempotencyKey: `github-delivery:${delivery.deliveryId}` },
    );
    if (outcome.alreadyApplied) return { status: 'duplicate' };
    return { status: 'recorded', streamId: facts.streamId, position: outcome.position };
  }

  private async verifies(secret: string, delivery: WebhookDelivery): Promise<boolean> {
    if (this.verifier?.secret !== secret) this.verifier = { secret, webhooks: new Webhooks({ secret }) };
    try {
      return await this.verifier.webhooks.verify(delivery.rawBody.toString('utf8'), delivery.signature!);
    } catch {
      // A malformed signature header is no signature.
      return false;
    }
  }
}
