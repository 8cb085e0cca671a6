import { Controller, Get, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '@switchyard/auth';
import type { EventStore } from '@switchyard/event-store';
import { Param, PullNumberPipe } from '@switchyard/http';
import { conflict, notFound } from '@switchyard/kernel';
import { EVENT_STORE, SQL_EXECUTOR } from '@switchyard/platform';
import {
  findParkedEvent,
  listParkedEvents,
  replayParkedEvent,
  type ParkedEvent,
} from '@switchyard/projection';
import type { SqlExecutor } from '@switchyard/sql';

/**
 * Operators' view of the external facts that processors parked (a webhook's fact they could not
 * apply): list them, look at one with its event, and ask its processor to apply it again once the
 * cause is fixed. Deployment-wide, so an admin key only.
 */
@ApiTags('Operations')
@Auth(['admin_key'])
@Controller('v1/admin/parked-events')
export class ParkedEventsController {
  constructor(
    @Inject(SQL_EXECUTOR) private readonly sql: SqlExecutor,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List the events that processors parked and that are not replayed yet' })
  async list(): Promise<{ parked_events: object[] }> {
    return { parked_events: (await listParkedEvents(this.sql)).map(toBody) };
  }

  @Get(':id')
  @ApiOperation({ summary: 'Show a parked event, with the event as stored' })
  async show(@Param('id', PullNumberPipe) number: bigint): Promise<object> {
    const id = number.toString();
    const parked = await findParkedEvent(this.sql, id);
    if (!parked) throw notFound(`No parked event ${id}`);
    const { events } = await this.store.readStream(parked.streamId, {
      fromRevision: BigInt(parked.revision),
      maxCount: 1,
    });
    const event = events[0];
    return {
      ...toBody(parked),
      event: event ? { type: event.type, data: event.data, metadata: event.metadata } : null,
    };
  }

  @Post(':id/replay')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Apply a parked event again (after a fix) and answer the outcome',
    description:
      'The processor that parked it applies it at its next heartbeat: `replayed` (no longer parked), ' +
      '`failed` (still parked, with the error), or `pending` when no process runs the processor now.',
  })
  async replay(@Param('id', PullNumberPipe) number: bigint): Promise<object> {
    const id = number.toString();
    const result = await replayParkedEvent(this.sql, id);
    if (result.outcome === 'unknown') throw notFound(`No parked event ${id}`);
    if (result.outcome === 'already-replayed') throw conflict(`Parked event ${id} was replayed already`);
    return { outcome: result.outcome, parked_event: toBody(result.parked) };
  }
}

function toBody(parked: ParkedEvent) {
  return {
    id: parked.id,
    processor: parked.processor,
    event_type: parked.type,
    stream_id: parked.streamId,
    revision: parked.revision,
    position: parked.position,
    error: parked.error,
    attempts: parked.attempts,
    parked_at: parked.parkedAt,
    replay_requested_at: parked.replayRequestedAt,
    replayed_at: parked.replayedAt,
    last_replay_error: parked.lastReplayError,
  };
}
