import { json } from '@sveltejs/kit';
import type { RequestHandler } from './$types';

/** Liveness: answers as soon as the server can serve requests. */
export const GET: RequestHandler = () => json({ ok: true });
