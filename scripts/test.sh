#!/usr/bin/env bash
# The whole test suite: installs what is missing, checks formatting and vet, runs every test
# with the race detector (UI tests with Fyne's test driver, real QEMU and cross-compilers,
# `androprof screenshot` under xvfb-run), then the benchmarks the issues name, once each.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
export CGO_ENABLED=1

unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
	echo "not gofmt-formatted:"; echo "$unformatted"; exit 1
fi
go vet -tags migrated_fynedo ./...
go test -tags migrated_fynedo -race -count=1 -timeout 30m ./...
# Benchmarks with numbers in the issues; -benchtime keeps them short, results are printed.
go test -tags migrated_fynedo -run '^$' -bench . -benchtime 200x -count=1 ./isaprofiles/ ./controller/
