import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsStorableString } from '@switchyard/http';
import { SimulatorBody } from '@switchyard/mergify-config/http/dto/simulator.body';
import { IsOptional, IsString } from 'class-validator';
import { WHAT_IF_DEFAULTS } from '../simulation/what-if';

/** The configuration text as the simulators take it, and the workload as `switchyard simulate`'s flags. */
export class QueueSimulationBody extends SimulatorBody {
  @ApiPropertyOptional({
    example: '20/h',
    description: `Pull requests arriving (default ${WHAT_IF_DEFAULTS.arrivals})`,
  })
  @IsOptional()
  @IsString()
  @IsStorableString(64)
  arrivals?: string;

  @ApiPropertyOptional({ example: '30m±20%', description: `CI duration (default ${WHAT_IF_DEFAULTS.ci})` })
  @IsOptional()
  @IsString()
  @IsStorableString(64)
  ci?: string;

  @ApiPropertyOptional({
    example: '5%',
    description: `Share of broken pull requests (default ${WHAT_IF_DEFAULTS.failure})`,
  })
  @IsOptional()
  @IsString()
  @IsStorableString(64)
  failure?: string;

  @ApiPropertyOptional({
    example: '1%',
    description: `Share of CI runs failing for nothing (default ${WHAT_IF_DEFAULTS.flaky})`,
  })
  @IsOptional()
  @IsString()
  @IsStorableString(64)
  flaky?: string;
}
