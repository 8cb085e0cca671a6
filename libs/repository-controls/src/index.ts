// Domain (pure): deciders, events, the freeze calendar.
export * from './domain/conditions/condition';
export * from './domain/conditions/condition-shape';
export * from './domain/pause/merge-queue-pause.commands';
export * from './domain/pause/merge-queue-pause.events';
export * from './domain/pause/merge-queue-pause.decider';
export * from './domain/pause/merge-queue-pause.stream';
export * from './domain/freeze/freeze-attributes';
export * from './domain/freeze/truncate-to-second';
export * from './domain/freeze/scheduled-freeze.commands';
export * from './domain/freeze/scheduled-freeze.events';
export * from './domain/freeze/scheduled-freeze.errors';
export * from './domain/freeze/scheduled-freeze.decider';
export * from './domain/freeze/scheduled-freeze.stream';
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
export * from './application/bus/merge-queue-pause.bus';
export * from './application/bus/scheduled-freeze.bus';
export * from './application/merge-fence';
export * from './application/merge-queue-pause.service';
export * from './application/scheduled-freeze.service';
export * from './repository-controls.module';
