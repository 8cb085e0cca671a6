import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandService } from '@switchyard/event-store/application';
import type { Actor, Clock } from '@switchyard/kernel';
import { CLOCK, COMMAND_SERVICE, READ_MODEL_FRESHNESS } from '@switchyard/platform';
import { readYourWrite, type ReadModelFreshness } from '@switchyard/projection';
import { testQuarantineStreamId } from '../domain/test-quarantine';
import { QUARANTINE_READ_MODELS } from './read-models';
import { TestQuarantineQueries } from './test-quarantine.queries';
import { quarantineCommandDecider } from './test-quarantine.snapshots';

/** DELETE quarantines/{id}: 404 when unknown or already lifted. */
export class DequarantineTestCommand extends Command<void> {
  constructor(
    readonly repository: string,
    readonly quarantineId: string,
    readonly actor: Actor,
  ) {
    super();
  }
}

/** Records the test's health as the quarantine is lifted; answers once the read model has it. */
@CommandHandler(DequarantineTestCommand)
export class DequarantineTestHandler implements ICommandHandler<DequarantineTestCommand, void> {
  constructor(
    @Inject(COMMAND_SERVICE) private readonly commands: CommandService,
    @Inject(READ_MODEL_FRESHNESS) private readonly freshness: ReadModelFreshness,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly quarantines: TestQuarantineQueries,
  ) {}

  async execute({ repository, quarantineId, actor }: DequarantineTestCommand): Promise<void> {
    const identities = await this.quarantines.healthOfQuarantined(repository, quarantineId);
    await readYourWrite(this.freshness, QUARANTINE_READ_MODELS, () =>
      this.commands.handle(testQuarantineStreamId(repository), quarantineCommandDecider, {
        type: 'DequarantineTest',
        repository,
        quarantineId,
        identities,
        actor,
        at: this.clock.now(),
      }),
    );
  }
}
