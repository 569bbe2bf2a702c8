/** Virtual phones on the server: the engine, the sandbox they watch, the messaging journey. */
export { VirtualPhone, phoneIdentity, type PhoneAccount, type PhoneEvent } from './engine';
export { SandboxWatch } from './watch';
export {
	runMessaging,
	MessagingInputSchema,
	PUSH_TIMEOUT_MS,
	MAX_PUSH_TIMEOUT_MS,
	type MessagingInput,
	type MessagingResult
} from './journey';
export { liveChannel, liveFeed, LIVE_KEY, type LiveItem } from './live';
