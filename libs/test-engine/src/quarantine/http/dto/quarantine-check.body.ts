import { IsStorableString } from '@switchyard/http';
import { IsArray, IsOptional, IsString } from 'class-validator';

/**
 * POST quarantines/check, as `mergify ci junit-process` sends it (client-contract §1.7): the failing
 * test names (repeats allowed) and the branch the tests ran for. Without a branch only quarantines
 * of every branch apply.
 */
export class QuarantineCheckBody {
  @IsArray()
  @IsString({ each: true })
  @IsStorableString(undefined, { each: true })
  tests_names!: string[];

  @IsOptional()
  @IsString()
  @IsStorableString()
  branch?: string | null;
}
