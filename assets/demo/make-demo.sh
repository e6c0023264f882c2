#!/usr/bin/env bash
# Regenerates the demo data set from assets/samples with Debian's cross-compilers and qemu-user
# (packages gcc-arm-linux-gnueabihf, gcc-mipsel-linux-gnu, gcc-aarch64-linux-gnu, gcc on an amd64
# machine, qemu-user; scripts/deps.sh installs them):
#  - demo-*.bbprofile.gz: basic-block profiles written by the real runner (assets/demo/gen);
#    demo-sieve-{arm,thumb,mips,arm64,x86-64}: the same sieve built for each instruction set;
#    demo-bzip2-{arm,mips,arm64,x86-64}: Debian bookworm's own bzip2 for armhf, mipsel, arm64
#    and amd64 (fetched by internal/debpkg into a cache, with apt: nothing on the machine
#    changes) compressing 1.5 MB of text that gen makes from a fixed seed, its output discarded;
#  - demo-heap-*.heaplog.gz and demo-heap-dump.hprof.gz: the Java samples (assets/samples/java) run
#    under the JVMTI heap agent, and HotSpot's heap dump of the cache sample (assets/demo/gen;
#    needs openjdk-17-jdk-headless and gcc);
#  - demo-vertical-phases.perfscript.gz: `perf script` of the four-phase Java sample (demo.Phases)
#    recorded under perf with the perf map agent, as `androprof vertical` does (needs linux-perf
#    and root);
#  - sieve-arm.inasm-exec.log.gz: a real `qemu-arm -d in_asm,exec,nochain` log, whose counts the
#    categorization editor shows. The ARM build runs ARM code in main and Thumb-2 in the static
#    glibc, so both show both instruction sets.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
go run ./assets/demo/gen
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
arm-linux-gnueabihf-gcc -O2 -static -marm -o "$tmp/sieve-arm" assets/samples/sieve.c
qemu-arm -d in_asm,exec,nochain -D "$tmp/demo.log" "$tmp/sieve-arm" 3000 >/dev/null
gzip -9 -c "$tmp/demo.log" > assets/demo/sieve-arm.inasm-exec.log.gz
# demo-methods.trace.gz: a real Android app's Traceview trace (jag-dmtrace.trace of ../shared/corpus).
if [ -f ../shared/corpus/jag-dmtrace.trace ]; then
	gzip -9 -n -c ../shared/corpus/jag-dmtrace.trace > assets/demo/demo-methods.trace.gz
fi
