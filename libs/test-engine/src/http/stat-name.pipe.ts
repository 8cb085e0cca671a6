import type { ArgumentMetadata, PipeTransform } from '@nestjs/common';
import { issueAt, issueShapes, RequestValidationException } from '@switchyard/http';

/** A `{stat}` path parameter: one of the allowed names, else a FastAPI 422 naming the parameter. */
export class StatNamePipe<Name extends string> implements PipeTransform<unknown, Name> {
  constructor(private readonly allowed: readonly Name[]) {}

  transform(value: unknown, metadata: ArgumentMetadata): Name {
    if (typeof value === 'string' && (this.allowed as readonly string[]).includes(value))
      return value as Name;
    throw new RequestValidationException([
      issueAt(['path', metadata.data ?? 'stat'], value ?? null, issueShapes.enum(this.allowed)),
    ]);
  }
}
