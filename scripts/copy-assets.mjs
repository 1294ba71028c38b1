// The second half of `npm run build`: tsc compiles src/**/*.ts to dist/; this copies every
// other file of src/ (browser scripts, HTML, CSS, the .js entry files of worker threads and
// forked processes) to the same place under dist/, verbatim except that in .js files a
// relative import of a .ts file becomes .js, as tsc's rewriteRelativeImportExtensions does for
// the compiled files. Plain node, no dependencies.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const src = join(root, 'src');
const dist = join(root, 'dist');
const RELATIVE_TS_IMPORT = /((?:from\s*|import\(\s*)['"]\.{1,2}\/[^'"]+)\.ts(['"])/g;

let copied = 0;
function walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = join(dir, entry.name);
    if (entry.isDirectory()) walk(file);
    else if (!file.endsWith('.ts')) {
      const target = join(dist, relative(src, file));
      mkdirSync(dirname(target), { recursive: true });
      if (file.endsWith('.js')) writeFileSync(target, readFileSync(file, 'utf8').replace(RELATIVE_TS_IMPORT, '$1.js$2'));
      else copyFileSync(file, target);
      copied += 1;
    }
  }
}
walk(src);
console.log(`copy-assets: ${copied} files from src/ to dist/`);
