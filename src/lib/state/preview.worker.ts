/// <reference lib="webworker" />
import { answer, type JobMessage } from './preview-job';

/** The preview builder's worker: builds each job it is sent with the one request builder. */
self.onmessage = (event: MessageEvent<JobMessage>) => {
	const { answer: message, transfer } = answer(event.data);
	self.postMessage(message, transfer);
};
