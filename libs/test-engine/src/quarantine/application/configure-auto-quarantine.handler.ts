import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandService } from '@switchyard/event-store/application';
import type { Actor, Clock } from '@switchyard/kernel';
import { CLOCK, COMMAND_SERVICE, READ_MODEL_FRESHNESS } from '@switchyard/platform';
import { readYourWrite, type ReadModelFreshness } from '@switchyard/projection';
import { testQuarantineStreamId } from '../domain/test-quarantine';
import type { AutoQuarantineView } from '../projection/test-quarantine.read-model';
import { QUARANTINE_READ_MODELS } from './read-models';
import { TestQuarantineQueries } from './test-quarantine.queries';
import { quarantineCommandDecider } from './test-quarantine.snapshots';

/** PUT auto-quarantine: answers with the settings as the read model holds them. */
export class ConfigureAutoQuarantineCommand extends Command<AutoQuarantineView> {
  constructor(
    readonly repository: string,
    readonly settings: AutoQuarantineView,
    readonly actor: Actor,
  ) {
    super();
  }
}

@CommandHandler(ConfigureAutoQuarantineCommand)
export class ConfigureAutoQuarantineHandler implements ICommandHandler<
  ConfigureAutoQuarantineCommand,
  AutoQuarantineView
> {
  constructor(
    @Inject(COMMAND_SERVICE) private readonly commands: CommandService,
    @Inject(READ_MODEL_FRESHNESS) private readonly freshness: ReadModelFreshness,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly quarantines: TestQuarantineQueries,
  ) {}

  async execute({
    repository,
    settings,
    actor,
  }: ConfigureAutoQuarantineCommand): Promise<AutoQuarantineView> {
    await readYourWrite(this.freshness, QUARANTINE_READ_MODELS, () =>
      this.commands.handle(testQuarantineStreamId(repository), quarantineCommandDecider, {
        type: 'ConfigureAutoQuarantine',
        repository,
        ...settings,
        actor,
        at: this.clock.now(),
      }),
    );
    return this.quarantines.autoQuarantine(repository);
  }
}
