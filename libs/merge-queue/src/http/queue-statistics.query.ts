import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsRfc3339DateTime, IsStorableString, MinCodePoints } from '@switchyard/http';
import { IsOptional, IsString } from 'class-validator';

export class QueueStatisticsQuery {
  @ApiPropertyOptional({
    description: 'Base branch of the queue; every branch of the repository when absent',
  })
  @IsOptional()
  @IsString()
  @MinCodePoints(1)
  @IsStorableString(255)
  branch?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Start of the window (included). Default: one day before until',
  })
  @IsOptional()
  @IsRfc3339DateTime()
  since?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'End of the window (excluded). Default: now' })
  @IsOptional()
  @IsRfc3339DateTime()
  until?: string;
}
