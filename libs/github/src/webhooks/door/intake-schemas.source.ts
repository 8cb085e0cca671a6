import published from '@octokit/openapi-webhooks/generated/api.github.com.json';
import { version } from '@octokit/openapi-webhooks/package.json';
import { INTAKE_READS, type IntakeEventName } from './intake-reads';
import { cutPublishedSchema, type CutSchema, type PublishedWebhooks } from './published-schema-cut';

export interface IntakeSchemas {
  /** The published description they were cut from. */
  source: string;
  events: Record<IntakeEventName, CutSchema>;
}

/**
 * The door's schemas cut afresh from GitHub's webhook description for github.com, as
 * @octokit/openapi-webhooks ships it (GitHub's own OpenAPI description, kept current by Octokit).
 * A development dependency: the cut is written to intake-schemas.json, which ships instead of the
 * 4.8 MB description (generate-intake-schemas.ts; a spec keeps the two in step).
 */
export function cutIntakeSchemas(): IntakeSchemas {
  const events = Object.fromEntries(
    Object.entries(INTAKE_READS).map(([event, reads]) => [
      event,
      cutPublishedSchema(published as unknown as PublishedWebhooks, event, reads),
    ]),
  ) as Record<IntakeEventName, CutSchema>;
  return { source: `@octokit/openapi-webhooks@${version} generated/api.github.com.json`, events };
}
