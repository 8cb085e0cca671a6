export * from './http-settings';
export * from './configure-http-app';

export * from './access/public.decorator';

export * from './body/json-body-decode.error';
export * from './body/json-body-reserved-key.error';
export * from './body/json-body-too-deep.error';
export * from './body/json-constructor-key';
export * from './body/json-nesting-depth';
export * from './body/json-syntax-position';
export * from './body/raw-json-body';

export * from './errors/domain-error-status';
export * from './errors/error-response';
export * from './errors/http-error.filter';

export * from './fastify/fastify-options';
export * from './fastify/framework-errors';
export * from './fastify/switchyard-fastify-adapter';

export * from './health/readiness';
export * from './health/storage-readiness';
export * from './health/health.controller';
export * from './health/health.module';
export * from './health/refused-inputs';

export * from './logging/create-logger';
export * from './logging/pino-nest-logger';
export * from './logging/request-id';

export * from './openapi/security-schemes';
export * from './openapi/setup-openapi';

export * from './pagination/cursor';
export * from './pagination/link-header';
export * from './pagination/page-params';
export * from './pagination/request-url';

export * from './read-your-writes/write-visibility.interceptor';
export * from './read-your-writes/read-your-writes.decorator';

export * from './params/repository-ref';
export * from './params/repository-ref.decorator';
export * from './params/pull-number.pipe';
export * from './params/uuid.pipe';

export * from './time/rfc3339';
export * from './time/response-time';

export * from './validation/define-rule';
export * from './validation/issue-describers';
export * from './validation/issue-shapes';
export * from './validation/request-validation.pipe';
export * from './validation/validation-issue';
export * from './validation/validated-params';
export * from './validation/assert-request-parameters-validated';
export * from './validation/decorators/code-point-length';
export * from './validation/decorators/date-time';
export * from './validation/decorators/iana-time-zone';
export * from './validation/decorators/query-transforms';
export * from './validation/decorators/storable-string';
export * from './validation/decorators/strict-bounds';
export * from './validation/decorators/uuid';
