#!/usr/bin/env bash
# Installs what is missing, builds androprof and opens the workbench. Arguments are passed on,
# so `scripts/workbench.sh profile list` works too.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
go build -o bin/androprof ./cmd/androprof
exec bin/androprof "$@"
