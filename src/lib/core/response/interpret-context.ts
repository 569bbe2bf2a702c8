/** Values the interpretation needs from the request (the defaults of External Authentication). */
export interface InterpretContext {
	username?: string;
	cloudId?: string;
}
