import { openStorage, type Storage, type SwitchyardConfig } from '@switchyard/platform';
import { switchyardProjections } from './switchyard-projections';

/**
 * The stores of every Switchyard process (api, projector, engine, all-in-one, CLI), with the
 * tables of every read model created before the process does anything else.
 */
export const openSwitchyardStorage = (config: SwitchyardConfig): Promise<Storage> =>
  openStorage(config, switchyardProjections());
