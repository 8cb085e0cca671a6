import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandService } from '@switchyard/event-store/application';
import { type Actor, type Clock, newId } from '@switchyard/kernel';
import { CLOCK, COMMAND_SERVICE, READ_MODEL_FRESHNESS } from '@switchyard/platform';
import { readYourWrite, type ReadModelFreshness } from '@switchyard/projection';
import { testIdOf } from '../../domain/identity/test-identity';
import { worstHealth } from '../domain/health-status';
import { testQuarantineStreamId } from '../domain/test-quarantine';
import { QUARANTINE_READ_MODELS } from './read-models';
import { TestQuarantineQueries } from './test-quarantine.queries';
import { quarantineCommandDecider } from './test-quarantine.snapshots';

export interface NewQuarantine {
  testName: string;
  reason: string;
  branch: string | null;
  unquarantineWhenHealthy: boolean;
}

/** POST quarantines: answers with the new quarantine's id. */
export class QuarantineTestCommand extends Command<string> {
  constructor(
    readonly repository: string,
    readonly quarantine: NewQuarantine,
    readonly actor: Actor,
  ) {
    super();
  }
}

/** Records the test's current health with the quarantine; answers once the read model has it. */
@CommandHandler(QuarantineTestCommand)
export class QuarantineTestHandler implements ICommandHandler<QuarantineTestCommand, string> {
  constructor(
    @Inject(COMMAND_SERVICE) private readonly commands: CommandService,
    @Inject(READ_MODEL_FRESHNESS) private readonly freshness: ReadModelFreshness,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly quarantines: TestQuarantineQueries,
  ) {}

  async execute({ repository, quarantine, actor }: QuarantineTestCommand): Promise<string> {
    const quarantineId = newId();
    const identities = await this.quarantines.healthOf(repository, quarantine.testName);
    await readYourWrite(this.freshness, QUARANTINE_READ_MODELS, () =>
      this.commands.handle(testQuarantineStreamId(repository), quarantineCommandDecider, {
        type: 'QuarantineTest',
        repository,
        quarantineId,
        testName: quarantine.testName,
        testId: testIdOf(repository, quarantine.testName),
        reason: quarantine.reason,
        branch: quarantine.branch,
        unquarantineWhenHealthy: quarantine.unquarantineWhenHealthy,
        health: worstHealth(identities.map((identity) => identity.health)),
        actor,
        at: this.clock.now(),
      }),
    );
    return quarantineId;
  }
}
