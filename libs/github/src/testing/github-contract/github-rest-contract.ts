import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { openApiNullable } from './openapi-nullable';

/**
 * GitHub's published REST description (`@octokit/openapi`, api.github.com), compiled with Ajv so a
 * test can check that a request body or a response body has the shape GitHub documents for that
 * operation. Shared by the sandbox forge's tests (what it answers) and the adapter's (what it sends).
 */
export interface ContractViolation {
  readonly operation: string;
  readonly errors: string[];
}

type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';

interface OpenApiOperation {
  operationId?: string;
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> } | { $ref: string }>;
}

interface OpenApiDocument {
  paths: Record<string, Partial<Record<Method, OpenApiOperation>>>;
  components: Record<string, Record<string, unknown>>;
}

interface PathTemplate {
  readonly template: string;
  readonly pattern: RegExp;
  /** Most literal text first, so `/repos/{o}/{r}/pulls/{n}` wins over `/repos/{o}/{r}/contents/{path}`-like catch-alls. */
  readonly literalLength: number;
}

const DOCUMENT_ID = 'github-rest';

let shared: GitHubRestContract | null = null;

export class GitHubRestContract {
  private readonly ajv: Ajv;
  private readonly templates: PathTemplate[];
  private readonly compiled = new Map<string, ValidateFunction>();

  private constructor(private readonly document: OpenApiDocument) {
    this.ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true, discriminator: false });
    addFormats(this.ajv);
    // GitHub's own format: a repository's "name with owner", `owner/name`.
    this.ajv.addFormat('repo.nwo', /^[^/\s]+\/[^/\s]+$/);
    this.ajv.addSchema({ $id: DOCUMENT_ID, components: openApiNullable(document.components) }, DOCUMENT_ID);
    this.templates = Object.keys(document.paths)
      .map((template) => ({
        template,
        pattern: new RegExp(
          `^${template
            .split(/(\{[^}]+\})/)
            .map((part) => (part.startsWith('{') ? parameterPattern(part) : escapeRegExp(part)))
            .join('')}$`,
        ),
        literalLength: template.replace(/\{[^}]+\}/g, '').length,
      }))
      .sort((a, b) => b.literalLength - a.literalLength);
  }

  /** One instance per test process: the description is large and compiling it takes a moment. */
  static load(): GitHubRestContract {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    shared ??= new GitHubRestContract(require('@octokit/openapi/generated/api.github.com.json'));
    return shared;
  }

  /** The documented path template a concrete path (no query string) falls under, if any. */
  templateFor(method: string, path: string): string | null {
    const lower = method.toLowerCase() as Method;
    const bare = path.split('?')[0];
    for (const candidate of this.templates) {
      if (candidate.pattern.test(bare) && this.document.paths[candidate.template][lower])
        return candidate.template;
    }
    return null;
  }

  /** Violations of the documented response body for this call; empty when it conforms. */
  checkResponse(method: string, path: string, status: number, body: unknown): string[] {
    const located = this.locate(method, path);
    if ('error' in located) return [located.error];
    const response = located.operation.responses?.[String(status)];
    // GitHub documents "Bad credentials" once for the whole API, not per operation, and answers
    // "Not Found" for a missing resource on operations that leave it out (PATCH of a deleted comment).
    if (!response && (status === 401 || status === 404))
      return this.run(located.name, '#/components/schemas/basic-error', body);
    if (!response) return [`${located.name}: status ${status} is not documented`];
    const schemaPointer = this.responseSchemaPointer(located, status, response);
    if (schemaPointer === null) return [];
    return this.run(located.name, schemaPointer, body);
  }

  /** Violations of the documented request body for this call; empty when it conforms. */
  checkRequest(method: string, path: string, body: unknown): string[] {
    const located = this.locate(method, path);
    if ('error' in located) return [located.error];
    if (!located.operation.requestBody?.content?.['application/json']) return [];
    const pointer = `${located.pointer}/requestBody/content/application~1json/schema`;
    return this.run(located.name, pointer, body);
  }

  private locate(
    method: string,
    path: string,
  ): { name: string; pointer: string; operation: OpenApiOperation } | { error: string } {
    const template = this.templateFor(method, path);
    if (!template)
      return { error: `${method.toUpperCase()} ${path}: no such operation in GitHub's REST API` };
    const lower = method.toLowerCase() as Method;
    const operation = this.document.paths[template][lower] as OpenApiOperation;
    return {
      name: operation.operationId ?? `${method.toUpperCase()} ${template}`,
      pointer: `#/paths/${pointerEscape(template)}/${lower}`,
      operation,
    };
  }

  private responseSchemaPointer(
    located: { pointer: string },
    status: number,
    response: NonNullable<OpenApiOperation['responses']>[string],
  ): string | null {
    if ('$ref' in response) {
      const shared = this.document.components.responses?.[response.$ref.split('/').pop() as string] as
        { content?: Record<string, { schema?: unknown }> } | undefined;
      if (!shared?.content?.['application/json']?.schema) return null;
      return `${response.$ref}/content/application~1json/schema`;
    }
    if (!response.content?.['application/json']?.schema) return null;
    return `${located.pointer}/responses/${status}/content/application~1json/schema`;
  }

  private run(name: string, pointer: string, body: unknown): string[] {
    let validate = this.compiled.get(pointer);
    if (!validate) {
      const target = pointer.startsWith('#/components/')
        ? { $ref: `${DOCUMENT_ID}${pointer}` }
        : this.inlineSchema(pointer);
      validate = this.ajv.compile(target);
      this.compiled.set(pointer, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (error) =>
        `${name}: ${error.instancePath || '(body)'} ${error.message ?? 'is invalid'} ${JSON.stringify(error.params)}`,
    );
  }

  /** Path items are not under `components`, so their schema is copied out; its $refs point into the document. */
  private inlineSchema(pointer: string): object {
    let node: unknown = this.document;
    for (const segment of pointer.slice(2).split('/')) {
      node = (node as Record<string, unknown>)[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    return rebase(openApiNullable(node)) as object;
  }
}

/** Parameters GitHub lets hold slashes (file paths, refs, `base...head`); the rest are one segment. */
const SLASHED_PARAMETERS = new Set(['{path}', '{ref}', '{basehead}', '{branch}', '{name}']);

const parameterPattern = (parameter: string): string => (SLASHED_PARAMETERS.has(parameter) ? '.+' : '[^/]+');

const pointerEscape = (segment: string): string => segment.replace(/~/g, '~0').replace(/\//g, '~1');

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Points a copied schema's local `#/components/...` references at the registered document. */
function rebase(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rebase);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] =
      key === '$ref' && typeof value === 'string' && value.startsWith('#/')
        ? `${DOCUMENT_ID}${value}`
        : rebase(value);
  }
  return out;
}
