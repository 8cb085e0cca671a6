import { reportSkip } from '@switchyard/testing';
import { EsdbEventStore } from '../esdb/esdb-event-store';
import { describeEventStoreContract } from './event-store.contract';

/** Needs a running server (docker-compose profile "esdb"), e.g. EVENTSTORE_URL=esdb://localhost:2113?tls=false */
const url = process.env.EVENTSTORE_URL;
if (!url) reportSkip('EventStoreDB', 'EVENTSTORE_URL');

(url ? describe : describe.skip)('EventStoreDB adapter', () => {
  describeEventStoreContract(
    'esdb',
    async (schemas) => {
      const store = await EsdbEventStore.open(url!, schemas);
      return { store, close: () => store.close() };
    },
    { uniqueEventIds: false, countsEvents: false },
  );
});
