// Import-cycle check run by `npm run lint`. dpdm rather than import-x/no-cycle: that rule
// skips `import type`, and a type-only cycle ties modules together just the same.
import { parseCircular, parseDependencyTree } from 'dpdm';

const ENTRIES = ['src/**/*.ts', 'servers/**/*.ts', 'bench/**/*.ts', 'examples/**/*.ts', 'test/**/*.ts'];

/** Cycles accepted for now, each as the files it runs through: none. */
const KNOWN = [];

const key = (files) => [...files].sort().join(' ');
const known = new Set(KNOWN.map(key));
const tree = await parseDependencyTree(ENTRIES, { transform: false, tsconfig: 'tsconfig.check.json' });
const found = parseCircular(tree).filter((cycle) => !known.has(key(cycle)));
for (const cycle of found) console.error(`import cycle: ${[...cycle, cycle[0]].join(' → ')}`);
if (found.length > 0) process.exit(1);
