import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsRfc3339DateTime, IsStorableString, MinCodePoints } from '@switchyard/http';
import { IsOptional, IsString } from 'class-validator';

/** `at` is Switchyard's extension: the queue as it was at that instant. */
const AT_DESCRIPTION =
  "x-switchyard extension: RFC 3339 instant; answers with the queue exactly as it was then (404 before the repository's first queue event, 422 in the future).";

export class QueueAtQuery {
  @ApiPropertyOptional({ format: 'date-time', description: AT_DESCRIPTION })
  @IsOptional()
  @IsRfc3339DateTime()
  at?: string;
}

export class QueueStatusQuery extends QueueAtQuery {
  @ApiPropertyOptional({ description: 'Base branch of the queue' })
  @IsOptional()
  @IsString()
  @MinCodePoints(1)
  @IsStorableString(255)
  branch?: string;
}

export class QueueBranchesWindowQuery {
  @ApiPropertyOptional({ format: 'date-time', description: 'Default: one day before end_at' })
  @IsOptional()
  @IsRfc3339DateTime()
  start_at?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Default: now' })
  @IsOptional()
  @IsRfc3339DateTime()
  end_at?: string;
}
