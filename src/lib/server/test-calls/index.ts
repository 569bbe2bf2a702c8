/** Test calls: `POST /api/test-calls` and the history of each user's calls. */
export {
	TestCallBodySchema,
	TestCallInputSchema,
	resolveCall,
	CallInputError,
	type TestCallInput
} from './input';
export {
	runTestCall,
	sendBuild,
	acquireSlot,
	cancelCall,
	TooManyCallsError,
	type TestCallAnswer,
	type AuditSink
} from './run';
export type { CallResult } from './call-result';
export {
	keepInHistory,
	trimHistory,
	writeAudits,
	listHistory,
	TestCallHistoryQuerySchema,
	historyEntry,
	type HistorySummary,
	type HistoryEntry
} from './history';
export type { ResponseEnvelope } from './envelope';
export { answerTestCall, type Caller, type JsonAnswer } from './answer';
