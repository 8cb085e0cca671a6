import { Controller, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '@switchyard/auth';
import { Body, type RepositoryRef, RepositoryRefParam } from '@switchyard/http';
import { TestQuarantineQueries } from '../application/test-quarantine.queries';
import { QuarantineCheckBody } from './dto/quarantine-check.body';

/**
 * The check as `mergify` CLIs from before July 2025 send it (ci-insights §1.6): another path, and no
 * branch, so only quarantines of every branch apply. Same answer shape as quarantines/check.
 */
@ApiTags('Test quarantines')
@Auth('QUAR')
@Controller('v1/ci/:owner/:repository/quarantine/check')
export class LegacyQuarantineCheckController {
  constructor(private readonly quarantines: TestQuarantineQueries) {}

  @Post()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ deprecated: true, description: 'Deprecated: use POST quarantines/check.' })
  async check(
    @RepositoryRefParam() repository: RepositoryRef,
    @Body() body: QuarantineCheckBody,
  ): Promise<{ quarantined_tests_names: string[]; non_quarantined_tests_names: string[] }> {
    const split = await this.quarantines.check(repository.key, body.tests_names, body.branch ?? null);
    return { quarantined_tests_names: split.quarantined, non_quarantined_tests_names: split.notQuarantined };
  }
}
