// Domain (pure): deciders, events, the freeze calendar.
export * from './domain/conditions/condition';
export * from './domain/conditions/condition-shape';
export * from './domain/merge-queue-pause';
export * from './domain/freeze/freeze-attributes';
export * from './domain/freeze/truncate-to-second';
export * from './domain/freeze/scheduled-freeze';
export * from './domain/calendar/freeze-calendar';

// Read models and the activity log.
export * from './projections';
export * from './projections/merge-queue-pause.projection';
export * from './projections/scheduled-freeze.projection';
export * from './projections/merge-queue-pause.read-model';
export * from './projections/scheduled-freeze.read-model';
export * from './activity/log-mapping';
export * from './json/merge-queue-pause.json';
export * from './json/scheduled-freeze.json';

// Nest.
export * from './application/pause-merge-queue.handler';
export * from './application/unpause-merge-queue.handler';
export * from './application/merge-queue-pause.queries';
export * from './application/schedule-freeze.handler';
export * from './application/change-freeze.handler';
export * from './application/cancel-freeze.handler';
export * from './application/scheduled-freeze.queries';
export * from './application/merge-fence';
export * from './repository-controls.module';
