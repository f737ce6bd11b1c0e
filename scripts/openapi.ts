/**
 * `npm run openapi`: writes docs/openapi.json from the zod schemas of shared/api. The contract
 * test fails while the committed file differs from what this writes.
 */
import { writeFileSync } from 'node:fs';
import { openApiText } from '../shared/api/openapi.js';

const target = new URL('../docs/openapi.json', import.meta.url);
writeFileSync(target, openApiText());
console.log(`wrote ${target.pathname}`);
