// Writes the tables of operations in docs/api.md from the published document (docs/openapi.json,
// which a unit test holds equal to the one the server makes), between their markers, then formats it.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { withOperationTables } from '../src/lib/server/openapi/markdown';

const ROOT = path.resolve(import.meta.dirname, '..');
const API_MD = path.join(ROOT, 'docs/api.md');
const document = JSON.parse(readFileSync(path.join(ROOT, 'docs/openapi.json'), 'utf8'));
const tags = (document.tags as { name: string }[]).map((t) => t.name);

writeFileSync(API_MD, withOperationTables(readFileSync(API_MD, 'utf8'), document, tags));
execFileSync('npx', ['prettier', '--write', API_MD], { stdio: 'inherit' });
