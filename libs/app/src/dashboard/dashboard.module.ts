import { Module } from '@nestjs/common';
import { StatusModule } from '@switchyard/merge-queue/status';
import { QueueChangesController } from './queue-changes.controller';

/** The dashboard's own routes beside the public API: its repository list and its live feed. */
@Module({ imports: [StatusModule], controllers: [QueueChangesController] })
export class DashboardModule {}
