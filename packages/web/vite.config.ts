import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, runnerImport } from 'vite';

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

/**
 * The console runs antd zero-runtime (AntdRoot: `zeroRuntime`, styles from antd/dist/antd.css), and
 * then antd's style hooks return before they call a component's style function; only its token
 * function (the CSS variables) still runs. The style functions and everything they alone import
 * were still bundled: about 50 KiB of compressed JavaScript on a list page. Here the style function
 * given to genStyleHooks / genSubStyleComponent / genComponentStyleHook becomes `() => []`, and the
 * bundler drops the rest. The build fails if no antd module calls them any more, so this is revisited.
 */
function antdZeroRuntimeStyles(): Plugin {
  const hooks = new Set(['genStyleHooks', 'genSubStyleComponent', 'genComponentStyleHook']);
  const inAntd = /[\\/]node_modules[\\/]antd[\\/]es[\\/]/;
  let stubbed = 0;
  type Node = { type: string; start: number; end: number; [key: string]: unknown };
  const isNode = (value: unknown): value is Node =>
    typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';
  const styleFunctions = (node: Node, found: Node[]) => {
    if (node.type === 'CallExpression') {
      const callee = node.callee as Node;
      const args = node.arguments as Node[];
      if (callee.type === 'Identifier' && hooks.has(callee.name as string) && args.length >= 2) found.push(args[1]);
    }
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) for (const item of value) isNode(item) && styleFunctions(item, found);
      else if (isNode(value)) styleFunctions(value, found);
    }
    return found;
  };
  return {
    name: 'appdesk-antd-zero-runtime-styles',
    apply: 'build',
    transform(code, id) {
      if (!inAntd.test(id) || !/\bgen(StyleHooks|SubStyleComponent|ComponentStyleHook)\(/.test(code)) return null;
      // The definitions themselves (theme/util) are kept; only calls that pass a style function change.
      const found = styleFunctions(this.parse(code) as unknown as Node, []).filter((arg) =>
        ['ArrowFunctionExpression', 'FunctionExpression', 'Identifier'].includes(arg.type),
      );
      if (found.length === 0) return null;
      let out = code;
      for (const arg of found.sort((a, b) => b.start - a.start)) {
        out = `${out.slice(0, arg.start)}() => []${out.slice(arg.end)}`;
      }
      stubbed += found.length;
      return { code: out, map: null };
    },
    buildEnd() {
      if (stubbed === 0)
        this.error('antd no longer calls genStyleHooks with a style function; check the zero-runtime build');
    },
  };
}

/**
 * The console gates its buttons by the permission of the endpoint each calls (state/grants.ts
 * useCanCall), read from the contract by state/endpointPermissions.ts. Shipped as written, that
 * module would bring every endpoint's zod schema into the console; here it becomes the table it
 * yields, worked out from the contract as the console is built (or served). The build fails if the
 * module no longer reads the contract's endpointEntries, so the replacement is revisited.
 */
function endpointPermissionsTable(): Plugin {
  const target = /[\\/]src[\\/]state[\\/]endpointPermissions\.ts$/;
  const contractEndpoints = path.join(root, '../contract/src/endpoints/index.ts');
  let table: Promise<string> | undefined;
  const build = async () => {
    const { module } = await runnerImport<{ endpointEntries: [string, { permission?: string }][] }>(contractEndpoints, {
      configFile: false,
      logLevel: 'error',
    });
    const pairs = module.endpointEntries.flatMap(([p, def]) => (def.permission ? [[p, def.permission]] : []));
    return JSON.stringify(Object.fromEntries(pairs));
  };
  return {
    name: 'appdesk-endpoint-permissions',
    enforce: 'pre',
    async transform(code, id) {
      if (!target.test(id)) return null;
      if (!code.includes('endpointEntries')) this.error(`${id} no longer reads endpointEntries; check the table`);
      table ??= build();
      return { code: `export const endpointPermissions = ${await table};\n`, map: null };
    },
  };
}

/**
 * The build's release, sent with every browser error report (state/errorReporter.ts) so operators
 * see which build broke: APP_RELEASE if set, else the commit built, else the build's minute.
 */
function release(): string {
  if (process.env.APP_RELEASE) return process.env.APP_RELEASE.slice(0, 64);
  try {
    return execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return `build-${new Date().toISOString().slice(0, 16).replace(/\D/g, '')}`;
  }
}

export default defineConfig({
  root,
  define: { __APP_RELEASE__: JSON.stringify(release()) },
  plugins: [endpointPermissionsTable(), chineseTabPosition(), antdZeroRuntimeStyles(), react(), precompress()],
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
