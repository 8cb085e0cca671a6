import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { isUuid } from '@switchyard/kernel';
import { issueShapes } from '../validation/issue-shapes';
import { issueAt, RequestValidationException } from '../validation/validation-issue';

/**
 * A UUID path parameter (`freeze_id`, `quarantine_id`…), lower-cased so lookups match however the
 * caller spelled it; 422 `uuid_parsing` with `loc: ["path", name]` otherwise.
 */
@Injectable()
export class UuidPipe implements PipeTransform<unknown, string> {
  transform(value: unknown, metadata: ArgumentMetadata): string {
    const loc = ['path', metadata.data ?? 'id'];
    if (typeof value !== 'string' || !isUuid(value)) {
      throw new RequestValidationException([issueAt(loc, value ?? null, issueShapes.uuidParsing())]);
    }
    return value.toLowerCase();
  }
}
