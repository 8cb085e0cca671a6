import type { Projection } from '@switchyard/projection';
import { testResultsProjection } from './test-results.projection';

/** The read models of test results (the quarantine side declares its own beside these). */
export const testEngineProjections: readonly Projection[] = [testResultsProjection];
