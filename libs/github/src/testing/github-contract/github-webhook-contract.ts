import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { openApiNullable } from './openapi-nullable';

/**
 * GitHub's published webhook description (`@octokit/openapi-webhooks`, api.github.com): checks that
 * a delivery's payload has the shape GitHub documents for its event and action.
 */
interface WebhookDocument {
  webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: unknown }> } } }>;
  components: Record<string, Record<string, unknown>>;
}

const DOCUMENT_ID = 'github-webhooks';

let shared: GitHubWebhookContract | null = null;

export class GitHubWebhookContract {
  private readonly ajv: Ajv;
  private readonly compiled = new Map<string, ValidateFunction>();

  private constructor(private readonly document: WebhookDocument) {
    this.ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
    addFormats(this.ajv);
    // GitHub's own format: a repository's "name with owner", `owner/name`.
    this.ajv.addFormat('repo.nwo', /^[^/\s]+\/[^/\s]+$/);
    this.ajv.addSchema({ $id: DOCUMENT_ID, components: openApiNullable(document.components) }, DOCUMENT_ID);
  }

  static load(): GitHubWebhookContract {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    shared ??= new GitHubWebhookContract(require('@octokit/openapi-webhooks/generated/api.github.com.json'));
    return shared;
  }

  /** The description's key for an event and action: `pull_request` + `opened` → `pull-request-opened`. */
  static webhookKey(event: string, action: string | undefined): string {
    const base = event.replace(/_/g, '-');
    return action ? `${base}-${action.replace(/_/g, '-')}` : base;
  }

  /** Violations of the documented payload for this delivery; empty when it conforms. */
  check(event: string, payload: unknown): string[] {
    const action =
      typeof payload === 'object' && payload !== null && 'action' in payload
        ? String((payload as { action: unknown }).action)
        : undefined;
    let key = GitHubWebhookContract.webhookKey(event, action);
    if (!this.document.webhooks[key]) key = GitHubWebhookContract.webhookKey(event, undefined);
    const webhook = this.document.webhooks[key];
    if (!webhook) return [`${event}${action ? `.${action}` : ''}: no such webhook in GitHub's description`];
    let validate = this.compiled.get(key);
    if (!validate) {
      const schema = webhook.post.requestBody.content['application/json'].schema as { $ref?: string };
      const target = schema.$ref ? { $ref: `${DOCUMENT_ID}${schema.$ref}` } : schema;
      validate = this.ajv.compile(target);
      this.compiled.set(key, validate);
    }
    if (validate(payload)) return [];
    return (validate.errors ?? []).map(
      (error) =>
        `${key}: ${error.instancePath || '(payload)'} ${error.message ?? 'is invalid'} ${JSON.stringify(error.params)}`,
    );
  }
}
