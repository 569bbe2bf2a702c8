/** Values the interpretation needs from the request (the defaults of External Authentication, the Rate Checker's number). */
export interface InterpretContext {
	username?: string;
	cloudId?: string;
	/** Rate Checker: `%smartUri%` of the call; not empty for a smart contact's number. */
	smartUri?: string;
	/** Push Notification Reporter: the received push's keys (`pushId`, `type`, …) of the call. */
	push?: Record<string, string>;
}
