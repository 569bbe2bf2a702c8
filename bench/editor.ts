import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { build } from 'esbuild';
import { createServer, type Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import { startApp, type BenchApp } from './app';
import { ms } from './measure';
import {
	busyPerKey,
	layoutRows,
	ownCode,
	paintRows,
	startProfile,
	startTrace,
	stopProfile,
	stopTrace,
	topRows,
	traceRows,
	type ProfileRow,
	type Trace
} from './profile';

/**
 * What a user waits for while typing in the profile editor, in a real browser (Chromium):
 * real key presses (through the browser's input pipeline) into the Send Message body (JSON at
 * 200 B, 200 KB and 1 MB, and a megabyte of XML, whose check runs in a worker), timed
 * in the page from the keydown event's own time stamp (so time the key spent queued behind other
 * work counts) until the preview's DOM shows the new character, and until the frame showing it
 * has been rendered (the first task after the next animation frame). Long tasks (over 50 ms,
 * PerformanceObserver "longtask") are summed over the typing and given per key.
 *
 * Beside it, in the same run and the same browser, the floor: a bare CodeMirror 6 editor with the
 * same document and no preview, in a tiny page this benchmark builds (esbuild) and serves, timed
 * the same way with its own content as the "preview". The editor's figures divided by the floor's
 * say what the page costs over the editor alone.
 *
 * Keys are pressed at 15 a second (a fast typist) without waiting for the page: a page that
 * cannot keep up queues keys, and their waiting shows in the figures.
 */

const WARM_UP = 5;
const KEYS = 40;
/** Milliseconds between key presses: 15 characters a second. */
const CADENCE = 1000 / 15;
/** What is typed into: a JSON body at three sizes, and a megabyte of XML (checked in a worker). */
const SIZES = [
	['200 B', 200, 'json'],
	['200 KB', 200 * 1024, 'json'],
	['1 MB', 1024 * 1024, 'json'],
	['1 MB XML', 1024 * 1024, 'xml']
] as const;

type Format = (typeof SIZES)[number][2];

/** The sizes a run types at: all, or those `EDITOR_SIZES` names (`EDITOR_SIZES='200 B,200 KB'`). */
const SIZES_RUN = SIZES.filter(
	([label]) => !process.env.EDITOR_SIZES || process.env.EDITOR_SIZES.split(',').includes(label)
);

/** A key's timings, in ms from its keydown. */
interface KeyTiming {
	dom: number;
	frame: number;
	/**
	 * Until the next paint after the key's events, as the browser's Event Timing says it (in 8 ms
	 * steps; the browser reports only keys over {@link PAINT_REPORTED} ms, the others count as that).
	 */
	paint: number;
}

/** The least key-to-paint time the browser's Event Timing reports. */
const PAINT_REPORTED = 16;

/** One typing run: per-key timings and the long tasks seen meanwhile. */
interface TypingRun {
	keys: KeyTiming[];
	longTaskMs: number;
	longest: number;
}

/**
 * A Send Message JSON body of about `bytes` bytes whose first item holds a note `"note":"<tag>"`
 * typed into at its end: the letters typed are counted from the note as the page shows it.
 */
export function jsonBody(bytes: number, tag: string): string {
	const head = `[{"note":"${tag}"}`;
	const unit = '{"to":"%sms_to%","body":"%sms_body%","n":"0123456789abcdefghij"}';
	const items: string[] = [];
	for (let size = head.length + 1; size + unit.length + 2 <= bytes; size += unit.length + 2)
		items.push(unit);
	const tail = `{"end":"${tag}"}]`;
	return items.length ? `${head},\n${items.join(',\n')},\n${tail}` : `${head},${tail}`;
}

/**
 * A Send Message XML body of about `bytes` bytes whose first element is a note `<note><tag>`,
 * typed into at its end, as in {@link jsonBody}.
 */
export function xmlBody(bytes: number, tag: string): string {
	const head = `<r><note>${tag}</note>\n`;
	const unit = '<m><to>%sms_to%</to><body>%sms_body%</body><n>0123456789abcdefghij</n></m>\n';
	const tail = `<end>${tag}</end></r>`;
	const count = Math.max(0, Math.floor((bytes - head.length - tail.length) / unit.length));
	return head + unit.repeat(count) + tail;
}

/** How a body of each format is made, and how its note reads before the letters typed into it. */
const FORMATS = {
	json: {
		body: jsonBody,
		note: (tag: string) => `"note":"${tag}`,
		close: '"',
		end: (tag: string) => `"end":"${tag}"`
	},
	xml: {
		body: xmlBody,
		note: (tag: string) => `<note>${tag}`,
		close: '<',
		end: (tag: string) => `<end>${tag}<`
	}
} satisfies Record<Format, unknown>;

/**
 * Installs the probes in a page: keydown time stamps, the text of the note as `root` shows it
 * (read on every DOM mutation of `root`, through its first text nodes only), the frame after, and
 * long tasks. `tag` is the note's text before typing.
 */
async function installProbes(page: Page, root: string, tag: string, format: Format): Promise<void> {
	const note = FORMATS[format].note(tag);
	const close = FORMATS[format].close;
	await page.evaluate(
		({ root, note, close, reported }) => {
			type Probe = {
				downs: number[];
				dom: number[];
				frame: number[];
				paints: Record<number, number>;
				longTasks: { start: number; duration: number }[];
				disconnect: () => void;
			};
			const w = window as unknown as { __probe?: Probe };
			w.__probe?.disconnect();
			const probe: Probe = {
				downs: [],
				dom: [],
				frame: [],
				paints: {},
				longTasks: [],
				disconnect: () => {}
			};
			w.__probe = probe;
			const target = document.querySelector(root)!;
			const pattern = new RegExp(`${note}([a-z]*)${close}`);
			/** The first few hundred characters of the root's text. */
			function head(): string {
				const walker = document.createTreeWalker(target, NodeFilter.SHOW_TEXT);
				let text = '';
				while (text.length < 400 && walker.nextNode()) text += walker.currentNode.nodeValue;
				return text;
			}
			const afterFrame = (keys: number[]) =>
				requestAnimationFrame(() => {
					// A message runs after the frame this animation callback belongs to is rendered.
					const channel = new MessageChannel();
					channel.port1.onmessage = () => {
						const now = performance.now();
						for (const key of keys) probe.frame[key] = now;
					};
					channel.port2.postMessage(null);
				});
			const onKeydown = (event: KeyboardEvent) => {
				if (event.key.length === 1) probe.downs.push(event.timeStamp);
			};
			document.addEventListener('keydown', onKeydown, true);
			const observer = new MutationObserver(() => {
				const typed = pattern.exec(head())?.[1].length ?? 0;
				const now = performance.now();
				const shown: number[] = [];
				for (let key = probe.dom.length; key < Math.min(typed, probe.downs.length); key++) {
					probe.dom[key] = now;
					shown.push(key);
				}
				if (shown.length) afterFrame(shown);
			});
			observer.observe(target, { subtree: true, childList: true, characterData: true });
			const longTasks = new PerformanceObserver((list) => {
				for (const entry of list.getEntries())
					probe.longTasks.push({ start: entry.startTime, duration: entry.duration });
			});
			longTasks.observe({ type: 'longtask', buffered: false });
			// A key's entry starts at its keydown's time stamp: that is how it is found again.
			const paints = new PerformanceObserver((list) => {
				for (const entry of list.getEntries())
					if (entry.name === 'keydown') probe.paints[entry.startTime] = entry.duration;
			});
			paints.observe({ type: 'event', durationThreshold: reported, buffered: false });
			probe.disconnect = () => {
				document.removeEventListener('keydown', onKeydown, true);
				observer.disconnect();
				longTasks.disconnect();
				paints.disconnect();
			};
		},
		{ root, note, close, reported: PAINT_REPORTED }
	);
}

/** Presses `count` letters at the typing cadence and collects what the probes saw. */
async function typeKeys(page: Page, count: number): Promise<TypingRun> {
	const letters = 'abcdefghijklmnopqrstuvwxyz';
	const start = Date.now();
	for (let i = 0; i < count; i++) {
		const due = start + i * CADENCE;
		if (Date.now() < due) await new Promise((r) => setTimeout(r, due - Date.now()));
		await page.keyboard.press(letters[i % letters.length]);
	}
	await page.waitForFunction(
		(count) =>
			(window as unknown as { __probe: { frame: number[] } }).__probe.frame.filter(
				(t) => t !== undefined
			).length >= count,
		count,
		{ timeout: 60_000, polling: 50 }
	);
	// The browser gives its Event Timing entries a while after the paint they end at.
	await page.waitForTimeout(300);
	return page.evaluate((reported) => {
		const probe = (
			window as unknown as {
				__probe: {
					downs: number[];
					dom: number[];
					frame: number[];
					paints: Record<number, number>;
					longTasks: { start: number; duration: number }[];
				};
			}
		).__probe;
		const first = probe.downs[0];
		const tasks = probe.longTasks.filter((t) => t.start + t.duration >= first);
		return {
			keys: probe.downs.map((down, i) => ({
				dom: probe.dom[i] - down,
				frame: probe.frame[i] - down,
				paint: probe.paints[down] ?? reported
			})),
			longTaskMs: tasks.reduce((sum, t) => sum + t.duration, 0),
			longest: tasks.reduce((max, t) => Math.max(max, t.duration), 0)
		};
	}, PAINT_REPORTED);
}

/**
 * Pastes `text` over the whole content of the focused editor and times it until the root shows
 * it: its start in a preview, its end in an editor (whose cursor, and view, go to the end).
 */
async function pasteAndMeasure(
	page: Page,
	root: string,
	text: string,
	needles: { start: string; end: string },
	end: boolean
) {
	await page.keyboard.press('Control+a');
	return page.evaluate(
		({ root, text, needles, end }) =>
			new Promise<{ dom: number; frame: number }>((resolve) => {
				const target = document.querySelector(root)!;
				const needle = end ? needles.end : needles.start;
				function head(): string {
					const walker = document.createTreeWalker(target, NodeFilter.SHOW_TEXT);
					let out = '';
					while (out.length < 400 && walker.nextNode()) out += walker.currentNode.nodeValue;
					return out;
				}
				const start = performance.now();
				const observer = new MutationObserver(() => {
					if (!(end ? (target.textContent ?? '') : head()).includes(needle)) return;
					observer.disconnect();
					const dom = performance.now() - start;
					requestAnimationFrame(() => {
						const channel = new MessageChannel();
						channel.port1.onmessage = () => resolve({ dom, frame: performance.now() - start });
						channel.port2.postMessage(null);
					});
				});
				observer.observe(target, { subtree: true, childList: true, characterData: true });
				const data = new DataTransfer();
				data.setData('text/plain', text);
				document.activeElement!.dispatchEvent(
					new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true })
				);
			}),
		{ root, text, needles, end }
	);
}

function percentile(values: number[], p: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** The bare editor of the floor: CodeMirror 6 with history, the default keymap and wrapping. */
const FLOOR_ENTRY = `
import { EditorState } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
new EditorView({
	parent: document.getElementById('editor'),
	state: EditorState.create({
		doc: '',
		extensions: [history(), keymap.of([...historyKeymap, ...defaultKeymap]), EditorView.lineWrapping,
			EditorView.contentAttributes.of({ 'aria-label': 'Floor editor' })]
	})
});
`;

/**
 * The floor of the first load: the same bare editor holding the languages the page's body editor
 * holds (JSON and XML), so its JavaScript is what any CodeMirror 6 page able to edit those bodies
 * must receive before a first key is answered.
 */
const FLOOR_LANGUAGES_ENTRY = `
import { EditorState } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { json } from '@codemirror/lang-json';
import { xml } from '@codemirror/lang-xml';
new EditorView({
	parent: document.getElementById('editor'),
	state: EditorState.create({
		doc: '',
		extensions: [history(), keymap.of([...historyKeymap, ...defaultKeymap]), EditorView.lineWrapping,
			json(), xml(), EditorView.contentAttributes.of({ 'aria-label': 'Floor editor' })]
	})
});
`;

/** One floor's script, bundled and minified as the app's are. */
async function floorScript(entry: string): Promise<string> {
	const bundle = await build({
		stdin: { contents: entry, resolveDir: process.cwd(), loader: 'js' },
		bundle: true,
		minify: true,
		format: 'esm',
		write: false
	});
	return bundle.outputFiles[0].text;
}

/**
 * Builds the floor pages and serves them on an ephemeral loopback port: the bare editor at `/`,
 * the same with the JSON and XML languages at `/languages`.
 */
async function startFloor(): Promise<{ base: string; server: Server }> {
	const scripts: Record<string, string> = {
		'/floor.js': await floorScript(FLOOR_ENTRY),
		'/floor-languages.js': await floorScript(FLOOR_LANGUAGES_ENTRY)
	};
	const html = (script: string) =>
		'<!doctype html><html><head><meta charset="utf-8"><title>Floor</title>' +
		'<style>#editor .cm-editor{max-height:24rem;font-size:0.9rem}</style></head>' +
		`<body><div id="editor"></div><script type="module" src="${script}"></script></body></html>`;
	const server = createServer((request, response) => {
		const script = scripts[request.url ?? ''];
		if (script) {
			response.writeHead(200, { 'content-type': 'text/javascript' });
			response.end(script);
		} else {
			response.writeHead(200, { 'content-type': 'text/html' });
			response.end(html(request.url === '/languages' ? '/floor-languages.js' : '/floor.js'));
		}
	});
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	const { port } = server.address() as { port: number };
	return { base: `http://127.0.0.1:${port}`, server };
}

/** A page to type in: where its editor is, and what shows the typed text. */
interface Target {
	page: Page;
	editor: string;
	root: string;
	/** Whether the root is the editor itself, which shows the end of a paste. */
	bare: boolean;
}

/** How a run of the sizes is made: its CPU slowed `throttle` times, and profiled or not. */
interface RunOptions {
	throttle: number;
	profile: boolean;
}

/**
 * Brings a body of `bytes` in by a paste, puts the cursor at the end of its note, and types;
 * with `options.profile`, the typing's CPU profile too.
 */
async function measureSize(
	target: Target,
	bytes: number,
	format: Format,
	round: number,
	options: RunOptions
) {
	const { page, editor, root, bare } = target;
	const tag = `t${round}`;
	const log = (what: string) =>
		console.error(
			`editor bench: ${bytes} B ${format}, round ${round}, CPU ÷${options.throttle}: ${what}`
		);
	log('paste');
	await page.locator(editor).click();
	const { body, note, end } = FORMATS[format];
	const text = body(bytes, tag);
	const needles = { start: note(tag), end: end(tag) };
	const paste = await pasteAndMeasure(page, root, text, needles, bare);
	// The paste's own work (a whole-document lint, garbage collection) is let settle.
	await page.waitForTimeout((bytes > 100_000 ? 1500 : 300) * options.throttle);
	await page.keyboard.press('Control+Home');
	const at = text.indexOf(note(tag)) + note(tag).length;
	for (let i = 0; i < at; i++) await page.keyboard.press('ArrowRight');
	log('warm-up');
	await installProbes(page, root, tag, format);
	await typeKeys(page, WARM_UP);
	await page.waitForTimeout(300);
	await installProbes(page, root, tag + 'abcdefghijklmnopqrstuvwxyz'.slice(0, WARM_UP), format);
	log('typing');
	const session = options.profile ? await page.context().newCDPSession(page) : undefined;
	if (session) {
		await startTrace(page);
		await startProfile(session);
	}
	const typing = await typeKeys(page, KEYS);
	const profile = session ? await stopProfile(session) : undefined;
	const trace = session ? await stopTrace(page, session) : undefined;
	await session?.detach();
	return { paste, typing, profile, trace };
}

/** The profile editor on Send Message with a URL and a JSON body, ready to type in. */
async function openEditor(app: BenchApp, context: BrowserContext, cookie: string): Promise<Page> {
	const created = await fetch(`${app.base}/api/profiles`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', origin: app.base, cookie },
		body: JSON.stringify({ name: `Benchmark ${Date.now()}` })
	});
	const { profile } = (await created.json()) as { profile: { id: string } };
	const page = await context.newPage();
	await page.goto(`${app.base}/profiles/${profile.id}/services/sendMessage`, {
		waitUntil: 'networkidle'
	});
	await page.getByRole('textbox', { name: 'URL (genericSmsSendUrl)' }).click();
	await page.keyboard.type('https://sms.example.com/send?to=%sms_to%');
	await page.getByRole('button', { name: 'JSON body' }).click();
	return page;
}

/**
 * How long a tab is open before the address is entered: a person opens a tab, then types. The
 * browser starts the tab's renderer process meanwhile; a navigation that starts at once shares
 * the cores with that start-up.
 */
const TAB_OPEN_MS = 1000;

/**
 * The editor page loaded cold (empty cache, a new browser context): the gzipped JavaScript it
 * fetched before its editors were there to type in (scripts whose request started before the URL
 * field appeared: what must arrive before a keystroke can be answered), all it fetched until a
 * first keystroke was answered, and the time from navigation start until a key pressed as soon
 * as the URL field existed showed in the preview. `tab`: `open` navigates in a tab opened
 * {@link TAB_OPEN_MS} before, `new` as soon as the tab exists (its renderer still starting).
 */
async function coldLoad(app: BenchApp, browser: Browser, cookie: string, tab: 'open' | 'new') {
	const created = await fetch(`${app.base}/api/profiles`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', origin: app.base, cookie },
		body: JSON.stringify({ name: `Cold ${Date.now()}` })
	});
	const { profile } = (await created.json()) as { profile: { id: string } };
	const context = await newContext(browser, app, cookie);
	await context.addInitScript({
		content: `new MutationObserver((_, observer) => {
			if (document.querySelector('[aria-label="URL (genericSmsSendUrl)"]')) {
				globalThis.__editorAt = performance.now();
				observer.disconnect();
			}
		}).observe(document, { subtree: true, childList: true });`
	});
	const page = await context.newPage();
	const scripts = new Map<string, Promise<number>>();
	page.on('response', (response) => {
		if (!response.url().endsWith('.js')) return;
		// A script still arriving when the context closes (one loaded once the page settles) was
		// not counted: its body is not read.
		scripts.set(
			response.url(),
			response.body().then(
				(body) => gzipSync(body).length,
				() => 0
			)
		);
	});
	if (tab === 'open') await new Promise((resolve) => setTimeout(resolve, TAB_OPEN_MS));
	await page.goto(`${app.base}/profiles/${profile.id}/services/sendMessage`, {
		waitUntil: 'commit'
	});
	// Found by its accessible name as an attribute, not by a role query: a role query works out
	// the accessibility of the whole page in its main thread at every poll, which is the
	// benchmark's cost, not the user's.
	const url = page.locator('[aria-label="URL (genericSmsSendUrl)"]');
	await url.click();
	await page.keyboard.press('x');
	const timing = await page.evaluate(
		() =>
			new Promise<{ interactive: number; before: string[]; all: string[] }>((resolve) => {
				const check = () => {
					const shown = document.querySelector('[aria-label="Request preview"] [aria-label="URL"]');
					if (!shown?.textContent?.includes('x')) return requestAnimationFrame(check);
					const at = (globalThis as unknown as { __editorAt: number }).__editorAt;
					const entries = performance
						.getEntriesByType('resource')
						.filter((e) => e.name.endsWith('.js'));
					resolve({
						interactive: performance.now(),
						before: entries.filter((e) => e.startTime <= at).map((e) => e.name),
						all: entries.map((e) => e.name)
					});
				};
				check();
			})
	);
	const size = async (urls: string[]) =>
		(await Promise.all(urls.map((u) => scripts.get(u) ?? Promise.resolve(0)))).reduce(
			(a, b) => a + b,
			0
		) / 1024;
	const kb = await size(timing.before);
	const allKb = await size(timing.all);
	await context.close();
	return { kb, allKb, interactive: timing.interactive };
}

/** The width of the window of the first keystroke's count: a laptop's. */
const FIRST_KEY_WIDTH = 1440;

/** What the first keystroke's count found: bytes and files, at that keystroke and once idle. */
export interface FirstKeystroke {
	/** Gzipped JavaScript received by the moment a first key typed into the editor was shown. */
	kb: number;
	files: number;
	/** The same once the page has been quiet for {@link IDLE_MS}. */
	idleKb: number;
	idleFiles: number;
	/** Milliseconds from navigation start to that moment. */
	at: number;
	/** Each script received by that moment, gzipped, largest first. */
	scripts: { url: string; kb: number }[];
}

/** Cold loads of the page whose median is the first keystroke's figure. */
const FIRST_KEY_RUNS = 3;

/** How long no new script must arrive for a page to count as idle. */
const IDLE_MS = 3000;

/**
 * Every script a page loaded cold (empty cache, a new context, {@link FIRST_KEY_WIDTH} px wide)
 * has received at the moment a key typed into its editor has reached what shows it, whenever each
 * was requested: what the user waits for before typing is answered. The key (`~`) is pressed as
 * soon as `editor` is visible, after its last line; `shown` is the element
 * whose text must then include `expect`. Each script is counted as
 * its body gzipped at level 9 (the server sends Brotli where the browser asks for it, which would
 * be smaller; gzip is the measure the goal is stated in). Then the same once no new script has
 * arrived for {@link IDLE_MS}.
 */
async function firstKeystroke(
	browser: Browser,
	address: string,
	selectors: { editor: string; shown: string; expect: string },
	setup?: (context: BrowserContext) => Promise<void>
): Promise<FirstKeystroke> {
	const context = await browser.newContext({ viewport: { width: FIRST_KEY_WIDTH, height: 900 } });
	await context.addInitScript({ content: 'globalThis.__name = (f) => f;' });
	await setup?.(context);
	const page = await context.newPage();
	const scripts = new Map<string, Promise<number>>();
	page.on('response', (response) => {
		const type = response.headers()['content-type'] ?? '';
		if (!response.url().endsWith('.js') && !type.includes('javascript')) return;
		scripts.set(
			response.url(),
			response.body().then(
				(body) => gzipSync(body, { level: 9 }).length,
				() => 0
			)
		);
	});
	await new Promise((resolve) => setTimeout(resolve, TAB_OPEN_MS));
	await page.goto(address, { waitUntil: 'commit' });
	// Clicked at its bottom right corner: after its last line, where a person adds to it.
	const editor = page.locator(selectors.editor);
	await editor.waitFor({ state: 'visible' });
	const box = (await editor.boundingBox())!;
	await editor.click({ position: { x: box.width - 4, y: box.height - 4 } });
	// The moment is taken in the page, by an observer set before the key is pressed: the DOM
	// change that shows the key, not a later poll (a round trip of the benchmark's own, during
	// which scripts asked for after the key could arrive and be counted).
	await page.evaluate(({ shown, expect }) => {
		const w = window as unknown as { __firstKey?: { at: number; urls: string[] } };
		const observer = new MutationObserver(() => {
			if (!document.querySelector(shown)?.textContent?.includes(expect)) return;
			observer.disconnect();
			// A script's entry is there once its response has been received.
			const urls = performance
				.getEntriesByType('resource')
				.filter((e) => e.name.endsWith('.js') || e.initiatorType === 'script')
				.map((e) => e.name);
			w.__firstKey = { at: performance.now(), urls };
		});
		observer.observe(document, { subtree: true, childList: true, characterData: true });
	}, selectors);
	await page.keyboard.press('~');
	const handle = await page.waitForFunction(
		() => (window as unknown as { __firstKey?: { at: number; urls: string[] } }).__firstKey,
		undefined,
		{ polling: 50 }
	);
	const moment = (await handle.jsonValue()) as { at: number; urls: string[] };
	const sizes = await Promise.all(
		moment.urls.map(async (url) => ({ url, bytes: (await scripts.get(url)) ?? 0 }))
	);
	// Idle: no new script for IDLE_MS.
	let count = -1;
	while (count !== scripts.size) {
		count = scripts.size;
		await page.waitForTimeout(IDLE_MS);
	}
	const idle = await Promise.all(scripts.values());
	await context.close();
	const kb = (bytes: number) => bytes / 1024;
	return {
		kb: kb(sizes.reduce((sum, s) => sum + s.bytes, 0)),
		files: sizes.length,
		idleKb: kb(idle.reduce((sum, b) => sum + b, 0)),
		idleFiles: idle.length,
		at: moment.at,
		scripts: sizes
			.map((s) => ({ url: new URL(s.url).pathname, kb: kb(s.bytes) }))
			.sort((a, b) => b.kb - a.kb)
	};
}

/**
 * The first keystroke on the Send Message page of a new profile (its body editor, a key typed in
 * it shown in the preview's body), and beside it the floor with the same languages (its editor
 * showing the key).
 */
export async function firstKeystrokeRows(
	app: BenchApp,
	browser: Browser,
	cookie: string,
	floorBase: string
): Promise<{ rows: string[][]; page: FirstKeystroke; floor: FirstKeystroke }> {
	// A configured Send Message: a URL and a one-line JSON body, typed into at its end.
	const created = await fetch(`${app.base}/api/profiles`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', origin: app.base, cookie },
		body: JSON.stringify({
			name: `First key ${Date.now()}`,
			document: {
				services: {
					sendMessage: {
						genericSmsSendUrl: 'https://sms.example.com/send',
						genericSmsSendPostData: '{"to":"%sms_to%","text":"%sms_body%"}',
						genericSmsSendContentType: 'application/json'
					}
				}
			}
		})
	});
	const { profile } = (await created.json()) as { profile: { id: string } };
	const [name, value] = cookie.split('=');
	// What has arrived by the key depends on when the key could be typed, which a busy machine
	// delays (after the page has settled, everything has): the median of a few cold loads.
	const runs: FirstKeystroke[] = [];
	for (let run = 0; run < FIRST_KEY_RUNS; run++) {
		runs.push(
			await firstKeystroke(
				browser,
				`${app.base}/profiles/${profile.id}/services/sendMessage`,
				{
					editor: '[aria-label="Post data (genericSmsSendPostData)"]',
					shown: '[aria-label="Request preview"] [aria-label="Body"]',
					expect: '}~'
				},
				(context) => context.addCookies([{ name, value, url: app.base }])
			)
		);
	}
	runs.sort((a, b) => a.kb - b.kb);
	const page = runs[Math.floor(runs.length / 2)];
	const range = runs.map((r) => r.kb.toFixed(1)).join(', ');
	// The floor's loads as many times: a time is compared median to median.
	const floors: FirstKeystroke[] = [];
	for (let run = 0; run < FIRST_KEY_RUNS; run++) {
		floors.push(
			await firstKeystroke(browser, `${floorBase}/languages`, {
				editor: '.cm-content',
				shown: '.cm-content',
				expect: '~'
			})
		);
	}
	const floor = floors[0];
	const medianAt = (loads: FirstKeystroke[]) =>
		loads.map((l) => l.at).sort((a, b) => a - b)[Math.floor(loads.length / 2)];
	const [pageAt, floorAt] = [medianAt(runs), medianAt(floors)];
	const row = (label: string, load: FirstKeystroke) => [
		label,
		// The goal is in KB of 1,024 bytes: the bytes show how near a figure that rounds to it is.
		`${load.kb.toFixed(1)} KB (${Math.round(load.kb * 1024).toLocaleString('en')} B)`,
		`${load.files} files`,
		ms(load.at),
		`${load.idleKb.toFixed(1)} KB`,
		`${load.idleFiles} files`,
		'',
		''
	];
	const rows = [
		row(
			`first keystroke, cold, ${FIRST_KEY_WIDTH} px: JavaScript (gzip -9) received when a key typed into the Send Message body shows in its preview, median of ${FIRST_KEY_RUNS} loads (${range} KB) · files · at · once idle · files`,
			page
		),
		row('the same, floor: bare CodeMirror 6 with the JSON and XML languages', floor),
		[
			`cold load → first key answered · ratio (page / floor, medians of the first keystroke's ${FIRST_KEY_RUNS} loads each)`,
			'',
			'',
			`${ms(pageAt)} / ${ms(floorAt)} · ${(pageAt / floorAt).toFixed(2)}×`,
			'',
			'',
			'',
			''
		],
		[
			'first keystroke · ratio (page / floor)',
			`${(page.kb / floor.kb).toFixed(2)}× (+${(page.kb - floor.kb).toFixed(1)} KB)`,
			'',
			'',
			`${(page.idleKb / floor.idleKb).toFixed(2)}×`,
			'',
			'',
			''
		]
	];
	return { rows, page, floor };
}

/**
 * A browser context for the benchmark. The probes are TypeScript functions run in the page; the
 * loader that runs this file wraps named functions in a `__name` helper the page must have.
 */
async function newContext(
	browser: Browser,
	app: BenchApp,
	cookie: string
): Promise<BrowserContext> {
	const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
	await context.addInitScript({ content: 'globalThis.__name = (f) => f;' });
	const [name, value] = cookie.split('=');
	await context.addCookies([{ name, value, url: app.base }]);
	return context;
}

/** The scripts of a first keystroke, largest first, on stderr beside the benchmark's progress. */
function logScripts(load: FirstKeystroke): void {
	for (const script of load.scripts)
		console.error(`first keystroke: ${script.kb.toFixed(1).padStart(6)} KB ${script.url}`);
}

/** `npm run bench -- first-key`: only the first keystroke's count and its floor. */
export async function benchFirstKeystroke(): Promise<string[][]> {
	return withBrowser(async (app, browser, cookie, floorBase) => {
		const { rows, page } = await firstKeystrokeRows(app, browser, cookie, floorBase);
		logScripts(page);
		return rows;
	});
}

/** How many times the throttled run slows Chromium's CPU: an ordinary laptop's. */
const THROTTLE = 4;

/** The frame p95 ratios (page / floor) of a run, by size, for a throttled run to compare with. */
type Ratios = Map<string, number>;

/**
 * Types into both pages at every size, the CPU slowed `options.throttle` times, and gives the
 * table's rows, each size's frame p95 ratio, and with `options.profile` each size's profile of
 * both pages. `before`: the ratios of the unthrottled run, each shown beside its own.
 */
async function typingRuns(ours: Target, bare: Target, options: RunOptions, before?: Ratios) {
	const rows: string[][] = [];
	const ratios: Ratios = new Map();
	const profiles: {
		label: string;
		page: ProfileRow[];
		floor: ProfileRow[];
		traces: { page: Trace; floor: Trace };
	}[] = [];
	const prefix = options.throttle === 1 ? '' : `CPU ÷${options.throttle} · `;
	const sessions = await Promise.all(
		[ours, bare].map((t) => t.page.context().newCDPSession(t.page))
	);
	for (const session of sessions)
		await session.send('Emulation.setCPUThrottlingRate', { rate: options.throttle });
	let round = ROUNDS_PER_RUN * (options.throttle - 1) + (options.profile ? 100 : 0);
	try {
		for (const [label, bytes, format] of SIZES_RUN) {
			// Each page in turn, in the foreground, with the same document.
			await ours.page.bringToFront();
			// The body's content type follows the document (the starter's text is pasted over).
			await ours.page.getByRole('button', { name: `${format.toUpperCase()} body` }).click();
			const a = await measureSize(ours, bytes, format, ++round, options);
			await bare.page.bringToFront();
			const b = await measureSize(bare, bytes, format, ++round, options);
			if (a.profile && b.profile && a.trace && b.trace)
				profiles.push({
					label,
					page: a.profile,
					floor: b.profile,
					traces: { page: a.trace, floor: b.trace }
				});
			const p = (r: TypingRun, key: keyof KeyTiming, q: number) =>
				percentile(
					r.keys.map((k) => k[key]),
					q
				);
			const ratio = (x: number, y: number) => `${(x / y).toFixed(1)}×`;
			for (const [who, r] of [
				['editor page', a.typing],
				['floor (bare CodeMirror)', b.typing]
			] as const) {
				const paint95 = p(r, 'paint', 95);
				rows.push([
					`${prefix}${label} · ${who}`,
					ms(p(r, 'dom', 50)),
					ms(p(r, 'dom', 95)),
					ms(p(r, 'frame', 50)),
					ms(p(r, 'frame', 95)),
					paint95 <= PAINT_REPORTED ? `≤ ${PAINT_REPORTED} ms` : ms(paint95),
					ms(r.longTaskMs / r.keys.length),
					ms(r.longest),
					String(r.keys.length)
				]);
			}
			const frame95 = p(a.typing, 'frame', 95) / p(b.typing, 'frame', 95);
			ratios.set(label, frame95);
			const unthrottled = before?.get(label);
			rows.push([
				`${prefix}${label} · ratio` +
					(unthrottled
						? ` (frame p95: ${(frame95 / unthrottled).toFixed(2)}× the unthrottled ratio)`
						: ''),
				ratio(p(a.typing, 'dom', 50), p(b.typing, 'dom', 50)),
				ratio(p(a.typing, 'dom', 95), p(b.typing, 'dom', 95)),
				ratio(p(a.typing, 'frame', 50), p(b.typing, 'frame', 50)),
				ratio(p(a.typing, 'frame', 95), p(b.typing, 'frame', 95)),
				p(a.typing, 'paint', 95) <= PAINT_REPORTED && p(b.typing, 'paint', 95) <= PAINT_REPORTED
					? ''
					: ratio(p(a.typing, 'paint', 95), p(b.typing, 'paint', 95)),
				'',
				'',
				''
			]);
			if (bytes === 1024 * 1024 && format === 'json') {
				rows.push([
					`${prefix}paste of ${label} · editor page / floor · ratio`,
					`${ms(a.paste.dom)} / ${ms(b.paste.dom)}`,
					'',
					`${ms(a.paste.frame)} / ${ms(b.paste.frame)} · ${ratio(a.paste.frame, b.paste.frame)}`,
					'',
					'',
					'',
					'',
					'1'
				]);
			}
		}
	} finally {
		for (const session of sessions) {
			await session.send('Emulation.setCPUThrottlingRate', { rate: 1 });
			await session.detach();
		}
	}
	return { rows, ratios, profiles };
}

/** Rounds a run of the sizes takes (two pages per size): each round types under its own tag. */
const ROUNDS_PER_RUN = SIZES.length * 2;

/** The app, the floor and a browser for one benchmark; `use` runs with them, then all stop. */
async function withBrowser<T>(
	use: (app: BenchApp, browser: Browser, cookie: string, floorBase: string) => Promise<T>
): Promise<T> {
	const app = await startApp();
	const floor = await startFloor();
	const browser = await chromium.launch({
		executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
		args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking']
	});
	try {
		return await use(app, browser, await app.login(), floor.base);
	} finally {
		await browser.close();
		floor.server.close();
		await app.stop();
	}
}

/** The editor page and the floor's, open side by side in one context, ready to type in. */
async function openTargets(app: BenchApp, browser: Browser, cookie: string, floorBase: string) {
	const context = await newContext(browser, app, cookie);
	const editorPage = await openEditor(app, context, cookie);
	const floorPage = await context.newPage();
	await floorPage.goto(floorBase, { waitUntil: 'networkidle' });
	const ours: Target = {
		page: editorPage,
		editor: '[aria-label="Post data (genericSmsSendPostData)"]',
		root: '[aria-label="Request preview"] [aria-label="Body"]',
		bare: false
	};
	const bare: Target = { page: floorPage, editor: '.cm-content', root: '.cm-content', bare: true };
	return { context, ours, bare };
}

/**
 * `npm run bench -- editor --profile`: the typing at every size with a CPU profile of each page,
 * as tables of the functions costing most per key, by self time and by total time. The profiler
 * slows the page, so these runs give no figures; build with `BUNDLE_MAP=1` for source names.
 */
export async function benchEditorProfile(): Promise<
	{ title: string; head?: string[]; rows: string[][] }[]
> {
	return withBrowser(async (app, browser, cookie, floorBase) => {
		const { context, ours, bare } = await openTargets(app, browser, cookie, floorBase);
		const { profiles } = await typingRuns(ours, bare, { throttle: 1, profile: true });
		await context.close();
		return profiles.flatMap(({ label, page, floor, traces }) => [
			{
				title: `${label}: editor page, busy ${busyPerKey(page, KEYS)} per key (floor ${busyPerKey(floor, KEYS)}); top self time per key`,
				rows: topRows(page, 'self', KEYS)
			},
			{
				// The framework's frames hold every other on their stacks: the project's own code says
				// which work a key sets off.
				title: `${label}: editor page, the project's own code by total time per key`,
				rows: topRows(page, 'total', KEYS, 12, ownCode)
			},
			{ title: `${label}: floor, top self time per key`, rows: topRows(floor, 'self', KEYS, 5) },
			{
				// What the profile counts as `(program)`: the browser's style, layout and paint.
				title: `${label}: the page's main thread, timeline events per key (an event inside another counts in both) · page · floor`,
				head: ['event', 'page', 'floor'],
				rows: traceRows(traces.page.sums, traces.floor.sums, KEYS)
			},
			{
				// Where that paint and layout are: the nodes painted, the layouts' roots.
				title: `${label}: what is painted per key, by node · page · floor`,
				head: ['node', 'page', 'floor'],
				rows: paintRows(traces.page, traces.floor, KEYS)
			},
			{
				title: `${label}: layouts per key, by root · page · floor`,
				head: ['root', 'page', 'floor'],
				rows: layoutRows(traces.page, traces.floor, KEYS)
			}
		]);
	});
}

/** Runs the editor benchmark and returns its table rows. */
export async function benchEditor(): Promise<string[][]> {
	return withBrowser(async (app, browser, cookie, floorBase) => {
		// The first page the server renders after its start, as the goal's figure; then the same
		// against a server that has served a page, and in a tab opened as the address is entered,
		// for comparison.
		const cold = await coldLoad(app, browser, cookie, 'open');
		const coldWarmServer = await coldLoad(app, browser, cookie, 'open');
		const coldNewTab = await coldLoad(app, browser, cookie, 'new');
		const firstKey = await firstKeystrokeRows(app, browser, cookie, floorBase);
		logScripts(firstKey.page);

		const { context, ours, bare } = await openTargets(app, browser, cookie, floorBase);
		const run = await typingRuns(ours, bare, { throttle: 1, profile: false });
		// An ordinary laptop: the same with Chromium's CPU slowed, its ratios beside the first's.
		const slow = await typingRuns(ours, bare, { throttle: THROTTLE, profile: false }, run.ratios);
		const rows = [...run.rows, ...slow.rows];
		const coldRow = (label: string, load: typeof cold) => [
			label,
			`${load.kb.toFixed(1)} KB`,
			`${load.allKb.toFixed(0)} KB`,
			ms(load.interactive),
			'',
			'',
			'',
			''
		];
		rows.push(
			coldRow(
				'cold load (empty cache, in an open tab): JavaScript (gzip) before the editors are there · until the first key is answered · time to that answer',
				cold
			),
			coldRow(
				'the same, the server having served one page already (the browser cold again)',
				coldWarmServer
			),
			coldRow(
				'the same, in a tab opened as the address is entered (its renderer starting meanwhile)',
				coldNewTab
			),
			...firstKey.rows
		);
		await context.close();
		return rows;
	});
}
