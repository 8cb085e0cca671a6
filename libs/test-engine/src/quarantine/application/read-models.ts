import { testQuarantineProjection } from '../projection/test-quarantine.projection';

/** Every quarantine read serves from this one read model; writes wait for it (read-your-writes). */
export const QUARANTINE_READ_MODELS: readonly string[] = [testQuarantineProjection.name];
