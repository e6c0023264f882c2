#!/usr/bin/env bash
# Scale of issue 30 (docs/parquet.md "Scale"): for a lab of 10, 100 and 1,000 runs
# (internal/runset), the time and peak memory of `import --jobs 1`, `import --jobs 2`,
# `export --format parquet` and one DuckDB query of docs/parquet.md, and the sizes; prints the
# Markdown table the document shows. Takes minutes for 1,000 runs; run it as
#   nice -n 10 scripts/scale.sh            (SCALE_RUNS="10 100" for fewer; SCALE_DIR to keep the files)
# Peak memory is the kernel's ru_maxrss of each command (internal/runset/timed), since
# /usr/bin/time is not installed by default. Needs go, node and npm (scripts/deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${SCALE_RUNS:-"10 100 1000"}
work=${SCALE_DIR:-$(mktemp -d /tmp/androprof-scale-XXXXXX)}
mkdir -p "$work/bin"
duckdb_version=1.5.6-r.1 # as app/cli/parquet_duckdb_test.go
node_dir=${XDG_CACHE_HOME:-$HOME/.cache}/androprof/duckdb-node-$duckdb_version

go build -o "$work/bin/androprof" ./cmd/androprof
go build -o "$work/bin/gen" ./internal/runset/gen
go build -o "$work/bin/timed" ./internal/runset/timed
if [ ! -f "$node_dir/node_modules/@duckdb/node-api/package.json" ]; then
	npm install --prefix "$node_dir" --no-audit --no-fund --prefer-offline "@duckdb/node-api@$duckdb_version" >/dev/null
fi

# The query timed: the energy of the benchmark suite per core, the second of the document's.
query() {
	awk '/^## Queries across runs/{on=1} /^## Spark/{on=0} on && /^```sql/{n++; if (n==2) {p=1; next}} p && /^```/{p=0} p' docs/parquet.md |
		sed "s|'DIR/|'$1/|g"
}

# measure LABEL COMMAND...: runs it under timed, keeps "seconds KiB" in $work/LABEL.m
measure() {
	local label=$1
	shift
	"$work/bin/timed" "$@" >"$work/$label.out" 2>"$work/$label.err" || {
		echo "scale: $label failed:" >&2
		tail -5 "$work/$label.err" >&2
		exit 1
	}
	tail -1 "$work/$label.err" | awk '{print $2, $4}' >"$work/$label.m"
}

mb() { du -sb "$1" | awk '{printf "%.1f", $1 / 1048576}'; }
secs() { cut -d' ' -f1 "$work/$1.m"; }
peak() { awk '{printf "%.0f", $2 / 1024}' "$work/$1.m"; }

table="| runs | input MB | import --jobs 1: s, peak MB | import --jobs 2: s, peak MB | speed-up | workspace MB | export: s, peak MB | export ms/run | Parquet MB (files) | Parquet KB/run | query: s, peak MB |
|---|---|---|---|---|---|---|---|---|---|---|"
for n in $runs; do
	lab=$work/lab-$n
	rm -rf "$lab" "$work/pq-$n" "$work"/ws-"$n"-j*.db*
	"$work/bin/gen" -n "$n" -out "$lab" >/dev/null
	for jobs in 1 2; do
		echo "scale: $n runs: import --jobs $jobs" >&2
		measure "import-$n-j$jobs" "$work/bin/androprof" import --jobs "$jobs" --db "$work/ws-$n-j$jobs.db" "$lab"
	done
	echo "scale: $n runs: export" >&2
	measure "export-$n" "$work/bin/androprof" export --format parquet --db "$work/ws-$n-j2.db" --out "$work/pq-$n"
	query "$work/pq-$n" >"$work/query-$n.sql"
	echo "scale: $n runs: query" >&2
	measure "query-$n" env DUCKDB_NODE_DIR="$node_dir" node scripts/duckdb-query.mjs "$work/query-$n.sql"
	files=$(find "$work/pq-$n" -name '*.parquet' | wc -l)
	pq_bytes=$(du -sb "$work/pq-$n" | cut -f1)
	row=$(awk -v n="$n" -v in_mb="$(mb "$lab")" -v s1="$(secs "import-$n-j1")" -v m1="$(peak "import-$n-j1")" \
		-v s2="$(secs "import-$n-j2")" -v m2="$(peak "import-$n-j2")" -v ws="$(mb "$work/ws-$n-j2.db")" \
		-v se="$(secs "export-$n")" -v me="$(peak "export-$n")" -v pq="$pq_bytes" -v files="$files" \
		-v sq="$(secs "query-$n")" -v mq="$(peak "query-$n")" 'BEGIN {
		printf "| %d | %s | %s, %s | %s, %s | %.2f× | %s | %s, %s | %.1f | %.1f (%d) | %.1f | %s, %s |",
			n, in_mb, s1, m1, s2, m2, s1 / s2, ws, se, me, 1000 * se / n, pq / 1048576, files, pq / 1024 / n, sq, mq }')
	table+=$'\n'"$row"
	echo "$row" >&2
done
echo "$(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GB", $2 / 1048576}' /proc/meminfo), $(uname -sr), $(date -u +%Y-%m-%d); files in $work"
echo "$table"
