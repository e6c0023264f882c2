#!/usr/bin/env bash
# Regenerates the demo QEMU log from assets/samples/sieve.c with Debian's cross-compiler and
# qemu-user (packages gcc-arm-linux-gnueabihf, qemu-user). The ARM build runs ARM code in main
# and Thumb-2 in the static glibc, so the log shows both instruction sets.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
arm-linux-gnueabihf-gcc -O2 -static -marm -o "$tmp/sieve-arm" "$here/../samples/sieve.c"
qemu-arm -d in_asm,exec,nochain -D "$tmp/demo.log" "$tmp/sieve-arm" 3000 >/dev/null
gzip -9 -c "$tmp/demo.log" > "$here/sieve-arm.inasm-exec.log.gz"
