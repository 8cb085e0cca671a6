/**
 * Nest injection tokens for the infrastructure every feature module shares. The platform module
 * provides them; feature modules only inject.
 *  - SQL_EXECUTOR: the read-model database (PGlite or PostgreSQL), a SqlExecutor.
 *  - EVENT_STORE: the EventStore port (PGlite, PostgreSQL or EventStoreDB adapter).
 *  - COMMAND_SERVICE: a CommandService over EVENT_STORE.
 *  - READ_MODEL_FRESHNESS: waits until projections include a position (read-your-writes).
 *  - CLOCK: the Clock (kernel); tests swap in a FixedClock.
 *  - APP_CONFIG: the parsed SwitchyardConfig.
 */
export const SQL_EXECUTOR = Symbol('SQL_EXECUTOR');
export const EVENT_STORE = Symbol('EVENT_STORE');
export const COMMAND_SERVICE = Symbol('COMMAND_SERVICE');
export const READ_MODEL_FRESHNESS = Symbol('READ_MODEL_FRESHNESS');
export const CLOCK = Symbol('CLOCK');
export const APP_CONFIG = Symbol('APP_CONFIG');
