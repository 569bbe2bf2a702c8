// Writes docs/openapi.json, the published API document, as the server makes it from the
// operations' schemas; a unit test holds the committed file equal to it.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { openApi } from '../src/lib/server/openapi/document';

const OPENAPI = path.resolve(import.meta.dirname, '../docs/openapi.json');

writeFileSync(OPENAPI, openApi().body);
console.log(`Wrote ${path.relative(process.cwd(), OPENAPI)}.`);
