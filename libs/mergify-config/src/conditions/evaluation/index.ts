export * from './context';
export * from './condition-evaluation';
export * from './markdown';
export { evaluateLeaf } from './evaluate-leaf';
export type { LeafVerdict } from './evaluate-leaf';
export type { ScheduleJson } from './schedule-clock';
