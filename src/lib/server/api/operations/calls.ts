import type { OperationSpec } from '../contract';

/** Test calls, echo sinks, push sandboxes and their gateway, the push composer and flows. */
export const callOperations: OperationSpec[] = [];
