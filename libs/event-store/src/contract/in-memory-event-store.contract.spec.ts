import { InMemoryEventStore } from '../in-memory/in-memory-event-store';
import { describeEventStoreContract } from './event-store.contract';

describeEventStoreContract('in-memory', async (schemas) => {
  const store = new InMemoryEventStore(schemas);
  return { store, close: () => store.close() };
});
