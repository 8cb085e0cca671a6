import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Param, Public } from '@switchyard/http';
import { notFound } from '@switchyard/kernel';
import { SQL_EXECUTOR } from '@switchyard/platform';
import type { SqlExecutor } from '@switchyard/sql';
import type { CheckRunRecord } from '../forge/sandbox-records';
import { SANDBOX_PATH } from '../forge/sandbox-forge';
import { SandboxStore } from '../store/sandbox-store';
import { checkRunPage } from './check-run-page';

const RUN_ID = /^\d{1,9}$/;

/**
 * The page a sandbox check run's `details_url` (and `html_url`) leads to: a browser follows that
 * link without a token, so the page is public, as a public repository's run page is on GitHub.
 * It only reads, and never makes the repository it names (sandbox writes do).
 */
@Controller(`${SANDBOX_PATH.slice(1)}/web`)
@Public()
@ApiExcludeController()
export class SandboxCheckRunPageController {
  private readonly store: SandboxStore;

  constructor(@Inject(SQL_EXECUTOR) executor: SqlExecutor) {
    this.store = new SandboxStore(executor);
  }

  @Get(':owner/:repo/runs/:id')
  @Header('content-type', 'text/html; charset=utf-8')
  async page(
    @Param('owner') owner: string,
    @Param('repo') name: string,
    @Param('id') id: string,
  ): Promise<string> {
    const repo = await this.store.repository(owner, name);
    const run = RUN_ID.test(id)
      ? await this.store.recordWithRepository<CheckRunRecord>('check_run', Number(id))
      : null;
    if (!repo || !run || run.repositoryId !== repo.id)
      throw notFound(`No check run ${id} in ${owner}/${name}`);
    return checkRunPage(repo, run.data);
  }
}
