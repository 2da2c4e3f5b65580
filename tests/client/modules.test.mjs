// The client's module graph (play/static/play/js), read as text: no browser needed. Each name a module imports is
// one its source module exports; every module is reached from the entry (app.js); the shell preloads each.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const JS = join(ROOT, "play", "static", "play", "js");
const modules = [
  ...readdirSync(JS).filter((f) => f.endsWith(".js")),
  ...readdirSync(join(JS, "lib")).filter((f) => f.endsWith(".mjs")).map((f) => `lib/${f}`),
];
const source = (name) => readFileSync(join(JS, name), "utf8");

function imports(name) {
  const out = [];
  for (const m of source(name).matchAll(/^import (?:\{ ([^}]*) \}|\* as \w+|(\w+)) from "([^"]+)";$/gm)) {
    const names = m[1] ? m[1].split(",").map((s) => s.trim().split(/\s+as\s+/)[0]) : [];
    out.push({ from: normalize(join(dirname(name), m[3])), names });
  }
  return out;
}

function exports(name) {
  const text = source(name);
  const out = new Set();
  for (const m of text.matchAll(/^export (?:async )?(?:function\*?|const|let|class) (\w+)/gm)) out.add(m[1]);
  for (const m of text.matchAll(/^\s*export \{([^}]*)\};?$/gm)) {
    for (const part of m[1].split(",")) if (part.trim()) out.add(part.trim().split(/\s+as\s+/).pop());
  }
  if (/^export default /m.test(text)) out.add("default");
  return out;
}

test("every name a module imports is exported by the module it names", () => {
  for (const name of modules) {
    for (const { from, names } of imports(name)) {
      assert.ok(modules.includes(from), `${name} imports ${from}, which is not a client module`);
      const given = exports(from);
      for (const wanted of names) assert.ok(given.has(wanted), `${name} imports ${wanted} from ${from}, which does not export it`);
    }
  }
});

test("every module but the shared page.js is reached from the entry, app.js", () => {
  const seen = new Set();
  const todo = ["app.js"];
  while (todo.length) {
    const name = todo.pop();
    if (seen.has(name)) continue;
    seen.add(name);
    for (const { from } of imports(name)) todo.push(from);
  }
  assert.deepEqual(modules.filter((m) => !seen.has(m) && m !== "page.js"), []);
});

test("no module uses a global namespace: the modules import one another", () => {
  for (const name of modules) {
    const code = source(name).replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
    const uses = (code.match(/window\.Ramino/g) || []).length;
    // app.js alone hands a few live parts to the browser tests and the console, and reads nothing back
    assert.equal(uses, name === "app.js" ? 1 : 0, name);
  }
});

test("the client's page preloads every module it runs and loads the entry as a module", () => {
  const html = readFileSync(join(ROOT, "play", "templates", "play", "client.html"), "utf8");
  const preloaded = [...html.matchAll(/<link rel="modulepreload" href="\{% get_static_prefix %\}play\/js\/([^"]+)">/g)].map((m) => m[1]);
  assert.deepEqual(preloaded.sort(), modules.filter((m) => m !== "app.js" && m !== "page.js").sort());
  assert.match(html, /<script type="module" src="\{% get_static_prefix %\}play\/js\/app\.js"><\/script>/);
});
