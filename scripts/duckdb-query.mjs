// Runs SQL with DuckDB (@duckdb/node-api) and prints each statement's result as JSON:
//
//   DUCKDB_NODE_DIR=DIR node scripts/duckdb-query.mjs [FILE.sql]   (stdin without FILE)
//
// DIR is where `npm install @duckdb/node-api@VERSION` was run (app/cli/parquet_duckdb_test.go
// and scripts/scale.sh install it into a cache folder, so the project itself has no
// node_modules). The SQL may hold several statements; the output is one JSON array with one
// {"columns": [...], "rows": [[...], ...]} per statement that returns rows. Integers that fit
// a double exactly are numbers, larger ones strings; NULL is null.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const dir = process.env.DUCKDB_NODE_DIR;
if (!dir) {
  console.error("duckdb-query: set DUCKDB_NODE_DIR to the folder @duckdb/node-api is installed in");
  process.exit(2);
}
const require = createRequire(join(dir, "package.json"));
const { DuckDBInstance } = await import(pathToFileURL(require.resolve("@duckdb/node-api")).href);

const sql = readFileSync(process.argv[2] ?? 0, "utf8");
const instance = await DuckDBInstance.create(":memory:");
const conn = await instance.connect();
const out = [];
try {
  const extracted = await conn.extractStatements(sql);
  for (let i = 0; i < extracted.count; i++) {
    const prepared = await extracted.prepare(i);
    const reader = await prepared.runAndReadAll();
    if (reader.columnCount === 0) continue;
    out.push({ columns: reader.columnNames(), rows: reader.getRows().map((r) => r.map(plain)) });
  }
} catch (err) {
  console.error("duckdb-query:", err.message);
  process.exit(1);
}
process.stdout.write(JSON.stringify(out) + "\n");

// plain is a DuckDB value as JSON has it.
function plain(v) {
  if (typeof v === "bigint") {
    return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  }
  if (v !== null && typeof v === "object") {
    return v.toString(); // decimals, dates, lists: their text
  }
  return v;
}
