import { HttpStatus } from '@nestjs/common';
import type { DomainErrorKind } from '@switchyard/kernel';

export const DOMAIN_ERROR_STATUS: Readonly<Record<DomainErrorKind, number>> = {
  bad_request: HttpStatus.BAD_REQUEST,
  forbidden: HttpStatus.FORBIDDEN,
  not_found: HttpStatus.NOT_FOUND,
  conflict: HttpStatus.CONFLICT,
  unprocessable: HttpStatus.UNPROCESSABLE_ENTITY,
};
