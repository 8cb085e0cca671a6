import { IsOptional, IsString } from 'class-validator';

/**
 * DELETE scheduled_freeze/{id} and POST …/delete. The spec requires delete_reason, but the CLI sends
 * `{}` when the user gave none (client-contract §1.5): it is accepted for a freeze not in force and
 * refused for one in force, which only the domain can tell.
 */
export class DeleteFreezeBody {
  @IsOptional()
  @IsString()
  delete_reason?: string | null;
}
