import { z } from 'zod';

/**
 * zod, as the core's schemas use it. The core runs in the browser too, under the app's Content
 * Security Policy, which allows no `eval`: zod's compiled parsers (its JIT) would be refused
 * anyway, and zod's probe for them (`new Function('')` inside a try, made as an object schema is
 * built) is reported as a CSP violation on every page that loads a schema. In a browser zod is
 * told to parse without compiling before any schema is built (every core module takes `z` from
 * here, so this runs first); on the server, where no CSP applies, the compiled parsers stay.
 */
if ('document' in globalThis) z.config({ jitless: true });

export { z };
