import { IsStorableText, MaxCodePoints } from '@switchyard/http';
import { IsString } from 'class-validator';

/**
 * Spec "Simulator": the configuration text, at most 1,048,576 characters, and none that a store
 * cannot hold (NUL, a lone surrogate: what no `.mergify.yml` the engine reads may carry either).
 */
export const MERGIFY_YML_MAX_CHARACTERS = 1_048_576;

export class SimulatorBody {
  @IsString()
  @MaxCodePoints(MERGIFY_YML_MAX_CHARACTERS)
  @IsStorableText()
  mergify_yml!: string;
}
