import { IsStorableString } from '@switchyard/http';
import { ArrayMaxSize, IsArray, IsBoolean, IsOptional, IsString } from 'class-validator';

/** The most scopes one pull request may report; far beyond any real repository's scope list. */
export const MAX_SCOPES = 1000;

/** `PUT`/`POST pulls/{number}/scopes`: what `mergify ci scopes-send` sends. */
export class ScopesBody {
  @IsArray()
  @ArrayMaxSize(MAX_SCOPES)
  @IsString({ each: true })
  @IsStorableString(255, { each: true })
  scopes!: string[];

  @IsOptional()
  @IsBoolean()
  all_scopes?: boolean | null;
}
