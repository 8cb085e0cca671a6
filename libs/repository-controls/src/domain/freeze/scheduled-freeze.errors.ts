import { DomainError } from '@switchyard/kernel';

export const FREEZE_NOT_FOUND_MESSAGE = 'The scheduled freeze with the given id does not exist';

/** The detail the CLI shows verbatim (client-contract E9). */
export const START_ALREADY_PASSED_MESSAGE =
  'The scheduled freeze `start` attribute cannot be updated, because the scheduled freeze has already started';

/**
 * Deleting a freeze that is in force needs a reason. Real clients send `{}` when the user gave none;
 * that is fine for a freeze not in force, and for one in force the edge answers the same 422 a missing
 * required field gets (client-contract E10), hence a dedicated error naming the field.
 */
export class DeleteReasonRequiredError extends DomainError {
  readonly field = 'delete_reason';
  constructor() {
    super('unprocessable', 'A delete_reason is required to delete a scheduled freeze that is in force');
    this.name = 'DeleteReasonRequiredError';
  }
}
