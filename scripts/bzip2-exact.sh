#!/usr/bin/env bash
# Issue 13's and 26's acceptance check at full size: Debian's own bzip2 (ARCH armhf, mipsel,
# arm64 or amd64) compressing SIZE bytes (default 3 MB) under `androprof run`, against QEMU's
# own count (`-singlestep -d exec,nochain`, about 70 bytes of log per instruction, streamed
# through a FIFO into a counter). Prints both totals and the costliest functions; exits 1 if
# they differ.
#   bash scripts/bzip2-exact.sh [ARCH] [SIZE]      (after bash scripts/workbench.sh built bin/androprof;
#                                                   ANDROPROF=path/to/androprof to use another build)
set -euo pipefail
cd "$(dirname "$0")/.."
arch=${1:-armhf}
size=${2:-3000000}
case "$arch" in
armhf) qemu=qemu-arm ;;
mipsel) qemu=qemu-mipsel ;;
arm64) qemu=qemu-aarch64 ;;
amd64) qemu=qemu-x86_64 ;;
*) echo "bzip2-exact.sh: ARCH is armhf, mipsel, arm64 or amd64, not $arch" >&2; exit 2 ;;
esac
androprof=${ANDROPROF:-bin/androprof}
root=$(go run ./internal/debpkg/debroot "$arch" bzip2 libbz2-1.0 libc6)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Words of the project's docs, shuffled with a fixed seed: prose-like and reproducible.
# Into a file first: head leaving a pipe early would kill tr with SIGPIPE, which pipefail makes
# the script's exit status (141).
cat docs/*.md README.md | tr -s ' \n' '\n\n' | shuf --random-source=<(yes) -r -n $((size / 6)) | tr '\n' ' ' > "$tmp/words.txt"
head -c "$size" "$tmp/words.txt" > "$tmp/in.txt"
# Both runs write into a pipe (glibc treats /dev/null, a character device, differently) with
# the same environment (the shell's $_ differs per command), so the guest does the same work.
same=(env -i PATH="$PATH" HOME="$HOME")
"${same[@]}" "$androprof" run --db "$tmp/w.db" --run bz --quiet -- "$root/bin/bzip2" -c "$tmp/in.txt" | cat > "$tmp/out.bz2"
bzip2 -t "$tmp/out.bz2"
got=$("$androprof" report --db "$tmp/w.db" --run bz --by pid | awk '$1 == "total" {print $2}')
mkfifo "$tmp/exec.fifo"
"${same[@]}" "$qemu" -singlestep -d exec,nochain -D "$tmp/exec.fifo" -L "$root" "$root/bin/bzip2" -c "$tmp/in.txt" | cat > /dev/null &
want=$(LC_ALL=C grep -a -c '^Trace ' "$tmp/exec.fifo")
wait
echo "$arch bzip2 on $size bytes: androprof $got instructions, qemu -singlestep $want"
"$androprof" report --db "$tmp/w.db" --run bz --by function --top 8
[ "$got" = "$want" ]
