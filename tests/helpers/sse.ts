/** An event of a server-sent event stream. */
export interface StreamEvent {
	id: number;
	type: string;
	data: Record<string, unknown>;
}

function parseBlock(block: string): StreamEvent | null {
	const type = /^event: (.*)$/m.exec(block)?.[1];
	const data = /^data: (.*)$/m.exec(block)?.[1];
	if (type === undefined || data === undefined) return null;
	return { id: Number(/^id: (\d+)$/m.exec(block)?.[1] ?? NaN), type, data: JSON.parse(data) };
}

/** Reads a server-sent event stream as a browser's EventSource would, one block at a time. */
export function sse(response: Response) {
	const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
	let text = '';
	const blocks: string[] = [];
	let ended = false;
	/** The next block, or null once the stream ended. */
	async function block(): Promise<string | null> {
		while (blocks.length === 0) {
			if (ended) return null;
			const { value, done } = await reader.read();
			if (done) {
				ended = true;
				return null;
			}
			text += value;
			const parts = text.split('\n\n');
			text = parts.pop()!;
			blocks.push(...parts);
		}
		return blocks.shift()!;
	}
	async function required(): Promise<string> {
		const next = await block();
		if (next === null) throw new Error('The stream ended.');
		return next;
	}
	return {
		/** Waits for a comment line (`: connected`). */
		async comment(name: string): Promise<void> {
			while (!new RegExp(`^: ${name}$`, 'm').test(await required()));
		},
		/** The next event of `type`. */
		async next(type: string): Promise<StreamEvent> {
			for (;;) {
				const event = parseBlock(await required());
				if (event?.type === type) return event;
			}
		},
		/**
		 * Every event until the stream ends, and whether it did within `waitMs` (if not, the
		 * reading stops there).
		 */
		async rest(waitMs: number): Promise<{ ended: boolean; events: StreamEvent[] }> {
			const events: StreamEvent[] = [];
			let timer: ReturnType<typeof setTimeout> | undefined;
			const late = new Promise<'late'>((resolve) => {
				timer = setTimeout(() => resolve('late'), waitMs);
			});
			try {
				for (;;) {
					const next = await Promise.race([block(), late]);
					if (next === 'late') {
						await reader.cancel();
						return { ended: false, events };
					}
					if (next === null) return { ended: true, events };
					const event = parseBlock(next);
					if (event) events.push(event);
				}
			} finally {
				clearTimeout(timer);
			}
		},
		close: () => reader.cancel()
	};
}
