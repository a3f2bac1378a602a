import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const root = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.join(root, 'dist');

/** Writes .br and .gz beside every text asset so @fastify/static can serve them pre-compressed. */
function precompress(): Plugin {
  const compressible = /\.(js|mjs|css|html|svg|json|txt)$/;
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const full = path.join(dir, name);
      return statSync(full).isDirectory() ? walk(full) : [full];
    });
  return {
    name: 'appdesk-precompress',
    apply: 'build',
    closeBundle() {
      for (const file of walk(outDir)) {
        if (!compressible.test(file)) continue;
        const source = readFileSync(file);
        if (source.length < 256) continue;
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(source, {
            params: {
              [zlibConstants.BROTLI_PARAM_QUALITY]: 11,
              [zlibConstants.BROTLI_PARAM_SIZE_HINT]: source.length,
            },
          }),
        );
        writeFileSync(`${file}.gz`, gzipSync(source, { level: 9 }));
      }
    },
  };
}

/**
 * antd's Tabs (rc-tabs 1.13, no locale for it) put the English "Tab 2 of 3" into the focused tab's
 * live region, and with it into the tab's accessible name; every Tabs of the console says it in
 * Chinese instead. The build fails if a later rc-tabs no longer has the text, so the fix is revisited.
 */
function chineseTabPosition(): Plugin {
  // The source text of rc-tabs' template literal, and ours (kept as plain strings, not templates).
  const dollar = '$';
  const english = `\`Tab ${dollar}{currentPosition} of ${dollar}{tabCount}\``;
  const chinese = `\`第 ${dollar}{currentPosition} 个，共 ${dollar}{tabCount} 个\``;
  return {
    name: 'appdesk-chinese-tab-position',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]@rc-component[\\/]tabs[\\/].*TabNode\.js$/.test(id)) return null;
      if (!code.includes(english)) {
        this.error(`rc-tabs changed: "${english}" is no longer in ${id}; check the tab's accessible name`);
      }
      return { code: code.replace(english, chinese), map: null };
    },
  };
}

export default defineConfig({
  root,
  plugins: [chineseTabPosition(), react(), precompress()],
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 1500,
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:8000',
      '/files': 'http://127.0.0.1:8000',
    },
  },
});
