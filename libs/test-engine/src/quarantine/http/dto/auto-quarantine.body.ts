import { IsBoolean, IsOptional } from 'class-validator';

/** PUT auto-quarantine: the whole setting; an omitted option is off. */
export class AutoQuarantineBody {
  @IsBoolean()
  enabled!: boolean;

  @IsOptional()
  @IsBoolean()
  ignore_broken_on_default_branch?: boolean;
}
