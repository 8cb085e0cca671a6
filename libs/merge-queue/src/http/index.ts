export * from './merge-queue.module';
