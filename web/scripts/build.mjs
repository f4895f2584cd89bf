// Builds the web client into server/webassets/ (served by server/net/webui.py): the page,
// its script and style under content-hashed names (the script split: what a screen
// opened rarely needs, and each language but English, is a module of its own, loaded
// when wanted; what the page needs at once is preloaded by the page), the client
// library as its own ES module, and the licenses of every bundled package; the
// languages come from the gettext catalogues through scripts/po2json.py (Python with
// Babel: KK_PYTHON, else the project's .venv, else python3); beside each text file its brotli
// body (`name.br`, at brotli's best: the server sends it to browsers that accept br). The output depends only on the
// sources and the locked packages, so a fresh `npm ci && npm run build` reproduces the
// committed files byte for byte.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { brotliCompressSync, constants as zlib } from "node:zlib";
import { readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync, existsSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// KK_WEB_OUT: build elsewhere (the test that checks the committed files are reproduced)
const outDir = process.env.KK_WEB_OUT || join(root, "..", "server", "webassets");
const src = (p) => join(root, "src", p);

const hashed = (name, ext, bytes) => {
  const digest = createHash("sha256").update(bytes).digest("hex").slice(0, 10);
  return `${name}.${digest}.${ext}`;
};

async function bundle(entry, extra = {}) {
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: "esm",
    target: ["es2022"],
    write: false,
    metafile: true,
    legalComments: "none", // the licenses ship in licenses.txt
    charset: "utf8",
    absWorkingDir: root,
    // paths as they are written (a copy of web/ whose node_modules is a link to another
    // tree's builds the same files: a split bundle's names hash its inputs' paths too)
    preserveSymlinks: true,
    ...extra,
  });
  return result;
}

// the languages: one JSON per language with the messages the page uses
const project = join(root, "..");
const venv = join(project, ".venv", "bin", "python");
const python = process.env.KK_PYTHON || (existsSync(venv) ? venv : "python3");
const langDir = mkdtempSync(join(tmpdir(), "kk-locales-"));
execFileSync(
  python,
  [join(project, "scripts", "po2json.py"), langDir, "--only", "web/src/app/*.ts"],
  { stdio: ["ignore", "ignore", "inherit"] },
);
const langFile = (lang) => JSON.parse(readFileSync(join(langDir, `${lang}.json`), "utf8"));
const languages = {
  name: "kk-locale",
  setup(build) {
    build.onResolve({ filter: /^kk-locale:/ }, (a) => ({
      path: a.path.replace("kk-locale:", "lang-"),
      namespace: "kk-locale",
    }));
    build.onLoad({ filter: /.*/, namespace: "kk-locale" }, (a) => {
      const lang = a.path.slice("lang-".length);
      const names = JSON.parse(readFileSync(join(project, "shared", "data", "names.json"), "utf8"));
      if (lang === "en-words") {
        // English: the ids are the messages; only the card data's words are bundled
        const { ingredients, colours } = langFile("en");
        const words = { ingredients, colours, languages: names.languages };
        return { contents: JSON.stringify(words), loader: "json" };
      }
      if (lang === "loaders") {
        // every other language (and the pseudo-locale) as a module loaded when chosen
        const codes = [...Object.keys(names.languages).filter((c) => c !== "en"), "xx"];
        const load = codes.map((c) => `${c}: () => import("kk-locale:${c}")`);
        return { contents: `export default { ${load.join(", ")} };`, loader: "js" };
      }
      return { contents: JSON.stringify(langFile(lang)), loader: "json" };
    });
  },
};

const app = await bundle(src("app/main.ts"), {
  splitting: true,
  outdir: join(root, "out"),
  entryNames: "[name].[hash]",
  chunkNames: "[name].[hash]",
  plugins: [languages],
});
rmSync(langDir, { recursive: true });
const lib = await bundle(src("lib/index.ts"));
const css = await bundle(src("style.css"), {
  format: undefined,
  target: ["chrome90", "firefox90", "safari15"],
});

const files = new Map();
const add = (name, bytes) => files.set(name, Buffer.from(bytes));
// the entry is app.<hash>.js (nothing imports it); the modules it loads keep esbuild's
// names, a hash of their content in each: `players.ABCD2345.js` (a screen opened
// rarely), `lang-de.ABCD2345.js` (a language), `chunk.ABCD2345.js` (code they share with
// the entry, which the page preloads)
const entry = app.outputFiles.find((f) => basename(f.path).startsWith("main."));
const jsName = hashed("app", "js", entry.contents);
const preload = [];
for (const f of app.outputFiles) {
  if (f === entry) continue;
  add(basename(f.path), f.contents);
}
const entryMeta = Object.entries(app.metafile.outputs).find(([, o]) =>
  o.entryPoint?.endsWith("main.ts"),
);
for (const imp of entryMeta[1].imports)
  if (imp.kind === "import-statement") preload.push(basename(imp.path));
const cssName = hashed("app", "css", css.outputFiles[0].contents);
const icon = readFileSync(src("icon.svg"));
const iconName = hashed("icon", "svg", icon);
add(jsName, entry.contents);
add(cssName, css.outputFiles[0].contents);
add(iconName, icon);
add(hashed("kupferkessel-client", "js", lib.outputFiles[0].contents), lib.outputFiles[0].contents);
// the page's indentation is only for reading its source: a line's leading spaces go
const html = readFileSync(src("index.html"), "utf8")
  .replace(/\n\s+/g, "\n")
  .replace("%PRELOAD%", preload.map((n) => `<link rel="modulepreload" href="/${n}" />`).join("\n"))
  .replace("%JS%", jsName)
  .replace("%CSS%", cssName)
  .replace("%ICON%", iconName);
add("index.html", html);

// licenses of the packages bundled into the scripts
const packages = new Set();
for (const meta of [app.metafile, lib.metafile]) {
  for (const input of Object.keys(meta.inputs)) {
    const m = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(input);
    if (m) packages.add(m[1].split(sep).join("/"));
  }
}
let licenses = "Kupferkessel Co. web client: licenses of the packages bundled into its scripts.\n";
for (const name of [...packages].sort()) {
  const dir = join(root, "node_modules", name);
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const file = readdirSync(dir)
    .sort()
    .find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
  if (!file) throw new Error(`${name} ships no license file`);
  licenses += `\n${"=".repeat(72)}\n${name} ${pkg.version} (${pkg.license})\n${"=".repeat(72)}\n\n`;
  licenses += readFileSync(join(dir, file), "utf8").trim() + "\n";
}
add("licenses.txt", licenses);

// brotli bodies, made here once (at quality 11 it takes too long for every start)
for (const [name, bytes] of [...files]) {
  if (!/\.(html|js|css|svg|txt)$/.test(name)) continue;
  const packed = brotliCompressSync(bytes, {
    params: {
      [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
      [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
      [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
  if (packed.length < bytes.length) add(`${name}.br`, packed);
}

mkdirSync(outDir, { recursive: true });
for (const f of readdirSync(outDir)) {
  if (f !== "__init__.py" && !files.has(f)) rmSync(join(outDir, f));
}
for (const [name, bytes] of files) {
  const path = join(outDir, name);
  if (!existsSync(path) || !readFileSync(path).equals(bytes)) writeFileSync(path, bytes);
}
const total = [...files.values()].reduce((n, b) => n + b.length, 0);
console.log(`built ${files.size} files into ${relative(process.cwd(), outDir)} (${total} bytes)`);
// what a browser fetches for the page (the page, its scripts, style and icon), as sent
const first = ["index.html", jsName, ...preload, cssName, iconName];
const sent = (n) => (files.get(`${n}.br`) ?? files.get(n)).length;
console.log(`first load: ${first.reduce((n, f) => n + sent(f), 0)} bytes with brotli`);
