#!/usr/bin/env bash
# Issue 13's acceptance check at full size: Debian's own bzip2 (ARCH armhf or mipsel)
# compressing SIZE bytes (default 3 MB) under `androprof run`, against QEMU's own count
# (`-singlestep -d exec,nochain`, about 70 bytes of log per instruction, streamed through a
# FIFO into a counter). Prints both totals and the costliest functions; exits 1 if they differ.
#   bash scripts/bzip2-exact.sh [ARCH] [SIZE]      (after bash scripts/workbench.sh built bin/androprof)
set -euo pipefail
cd "$(dirname "$0")/.."
arch=${1:-armhf}
size=${2:-3000000}
qemu=qemu-arm
[ "$arch" = mipsel ] && qemu=qemu-mipsel
root=$(go run ./internal/debpkg/debroot "$arch" bzip2 libbz2-1.0 libc6)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Words of the project's docs, shuffled with a fixed seed: prose-like and reproducible.
cat docs/*.md README.md | tr -s ' \n' '\n\n' | shuf --random-source=<(yes) -r -n $((size / 6)) | tr '\n' ' ' | head -c "$size" > "$tmp/in.txt"
# Both runs write into a pipe (glibc treats /dev/null, a character device, differently) with
# the same environment (the shell's $_ differs per command), so the guest does the same work.
same=(env -i PATH="$PATH" HOME="$HOME")
"${same[@]}" bin/androprof run --db "$tmp/w.db" --run bz --quiet -- "$root/bin/bzip2" -c "$tmp/in.txt" | cat > "$tmp/out.bz2"
bzip2 -t "$tmp/out.bz2"
got=$(bin/androprof report --db "$tmp/w.db" --run bz --by pid | awk '$1 == "total" {print $2}')
mkfifo "$tmp/exec.fifo"
"${same[@]}" "$qemu" -singlestep -d exec,nochain -D "$tmp/exec.fifo" -L "$root" "$root/bin/bzip2" -c "$tmp/in.txt" | cat > /dev/null &
want=$(LC_ALL=C grep -a -c '^Trace ' "$tmp/exec.fifo")
wait
echo "$arch bzip2 on $size bytes: androprof $got instructions, qemu -singlestep $want"
bin/androprof report --db "$tmp/w.db" --run bz --by function --top 8
[ "$got" = "$want" ]
