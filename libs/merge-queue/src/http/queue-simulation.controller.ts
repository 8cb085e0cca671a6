import { setImmediate as nextTurn } from 'node:timers/promises';
import { Controller, HttpCode, HttpStatus, Inject, Post } from '@nestjs/common';
import { ApiExtension, ApiTags } from '@nestjs/swagger';
import { Auth } from '@switchyard/auth';
import { Body, type RepositoryRef, RepositoryRefParam, RequestValidationException } from '@switchyard/http';
import { unprocessable, type Clock } from '@switchyard/kernel';
import { validateConfiguration } from '@switchyard/mergify-config';
import { CLOCK } from '@switchyard/platform';
import { configurationProblemIssue } from '@switchyard/mergify-config/json/configuration-problem.issue';
import { queuePolicyFromConfiguration } from '../application/policy-from-configuration';
import { parseArrivals, parseCiDuration, parseRate } from '../simulation/simulate-options';
import { formatSimulationReport } from '../simulation/simulation-report';
import { WHAT_IF_DEFAULTS, whatIfInSlices, whatIfWorkload } from '../simulation/what-if';
import type { Workload } from '../simulation/workload';
import { QueueSimulationBody } from './queue-simulation.body';

/** A simulated day is run while the request waits (in slices, between which other requests run): these bound its work. */
const MOST_ARRIVALS_PER_HOUR = 120;
const LARGEST_BURST = 500;

export interface QueueSimulationJson {
  workload: { arrivals: string; ci: string; failure: string; flaky: string; hours: number; seed: number };
  arrived: number;
  merged: number;
  merged_per_hour: number;
  time_to_merge_minutes: { p50: number | null; p95: number | null };
  ci_runs: number;
  ci_runs_per_merged_pull_request: number | null;
  dequeued: number;
  still_queued: number;
  /** The lines `switchyard simulate` prints for the same configuration and workload. */
  report: string[];
}

/** Switchyard's own: `switchyard simulate` for a configuration text (not in Mergify's API). */
@ApiTags('Simulator')
@Auth('STD')
@Controller('v1/repos/:owner/:repository/merge-queue')
export class QueueSimulationController {
  constructor(@Inject(CLOCK) private readonly clock: Clock) {}

  /** 200 with the throughput estimate; 422 for an invalid configuration (as configuration-simulator) or workload. */
  @Post('simulation')
  @HttpCode(HttpStatus.OK)
  @ApiExtension('x-switchyard-extension', {
    meaning:
      "Switchyard's own endpoint, not in Mergify's API: what `switchyard simulate` reports for this configuration (a simulated day, seed 1)",
  })
  async simulation(
    @RepositoryRefParam() _repository: RepositoryRef,
    @Body() body: QueueSimulationBody,
  ): Promise<QueueSimulationJson> {
    const validation = validateConfiguration(body.mergify_yml, this.clock.now());
    if (!validation.valid)
      throw new RequestValidationException(
        validation.errors.map((problem) => configurationProblemIssue(problem, ['body', 'mergify_yml'])),
      );
    const policy = queuePolicyFromConfiguration(validation.configuration);
    const typed = {
      arrivals: body.arrivals ?? WHAT_IF_DEFAULTS.arrivals,
      ci: body.ci ?? WHAT_IF_DEFAULTS.ci,
      failure: body.failure ?? WHAT_IF_DEFAULTS.failure,
      flaky: body.flaky ?? WHAT_IF_DEFAULTS.flaky,
    };
    const workload = whatIfWorkload(policy, {
      ...parsedWorkload(typed),
      hours: WHAT_IF_DEFAULTS.hours,
      seed: WHAT_IF_DEFAULTS.seed,
    });
    const result = await inSlices(whatIfInSlices(policy, workload));
    return {
      workload: { ...typed, hours: workload.hours, seed: workload.seed },
      arrived: result.arrived,
      merged: result.merged,
      merged_per_hour: result.mergedPerHour,
      time_to_merge_minutes: { p50: result.timeToMergeMinutes.p50, p95: result.timeToMergeMinutes.p95 },
      ci_runs: result.ciRuns,
      ci_runs_per_merged_pull_request: result.ciRunsPerMerged,
      dequeued: result.goodRejected + result.badRejected + result.pairRejected,
      still_queued: result.stillQueued,
      report: formatSimulationReport(result, policy, workload),
    };
  }
}

/**
 * Runs a generator to its end, giving the event loop a turn between its slices: a simulated day is
 * about 0.7 s of CPU, which would otherwise hold every other request of the process that long.
 */
async function inSlices<Result>(run: Generator<void, Result, void>): Promise<Result> {
  for (;;) {
    const step = run.next();
    if (step.done) return step.value;
    await nextTurn();
  }
}

function parsedWorkload(typed: {
  arrivals: string;
  ci: string;
  failure: string;
  flaky: string;
}): Pick<Workload, 'arrivals' | 'ci' | 'failureRate' | 'flakeRate'> {
  try {
    const arrivals = parseArrivals(typed.arrivals);
    if (arrivals.kind === 'poisson' && arrivals.perHour > MOST_ARRIVALS_PER_HOUR)
      throw new Error(`arrivals: at most ${MOST_ARRIVALS_PER_HOUR}/h, got "${typed.arrivals}"`);
    if (arrivals.kind === 'burst' && arrivals.count > LARGEST_BURST)
      throw new Error(`arrivals: a burst of at most ${LARGEST_BURST}, got "${typed.arrivals}"`);
    return {
      arrivals,
      ci: parseCiDuration(typed.ci),
      failureRate: parseRate('failure', typed.failure),
      flakeRate: parseRate('flaky', typed.flaky),
    };
  } catch (error) {
    throw unprocessable(error instanceof Error ? error.message : String(error));
  }
}
