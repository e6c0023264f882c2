#!/usr/bin/env bash
# Installs what the workbench and its tests need on Debian 12, then checks that each tool works.
# Shared (sourced) by workbench.sh, test.sh and .ci/run so the three never disagree.
# Every package is named: apt runs with --no-install-recommends, so nothing comes by luck (the
# cross compilers' C libraries, for one, are only Recommends of gcc-*-cross).
set -euo pipefail

packages=(
	gcc libc6-dev pkg-config                                   # cgo for Fyne's GL driver, the plugin and the agent
	libgl1-mesa-dev libx11-dev libxcursor-dev libxrandr-dev    # X11/GL headers (style.md)
	libxinerama-dev libxi-dev libxxf86vm-dev
	libwayland-dev libxkbcommon-dev wayland-protocols          # Fyne 2.8's GLFW builds Wayland too
	xvfb xauth xdotool                                         # windows without a screen, driven by real key presses and clicks (tests)
	qemu-user                                                  # real guests: qemu-arm, qemu-mipsel, qemu-aarch64, qemu-x86_64
	gcc-arm-linux-gnueabihf binutils-arm-linux-gnueabihf libc6-dev-armhf-cross
	gcc-mipsel-linux-gnu binutils-mipsel-linux-gnu libc6-dev-mipsel-cross
	gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libc6-dev-arm64-cross
	llvm-16 llvm-19                                            # llvm-mca: each block's pipeline cycles, and the built-in profiles' costs checked against LLVM's machine models (19 has the Neoverse N1 one)
	valgrind                                                   # cachegrind: the referee of the cache simulation (tests)
	dmtracedump                                                # Android's own method-trace profiler: the referee of method numbers, parents and children (tests)
	sqlite3                                                    # users (and a test) open the workspace with it
	bzip2                                                      # checks what the guest bzip2 (Debian armhf/mipsel, fetched by internal/debpkg) wrote
	openjdk-17-jdk-headless                                    # the JVMTI heap agent: jvmti.h, java, javac
	libasm-java                                                # ObjectWeb ASM for heap --mutations' Java agent
	linux-perf                                                 # androprof vertical: perf record and perf script
	chromium fonts-dejavu-core                                 # headless: the exports and the HTML report opened as a viewer would (tests)
	protobuf-compiler                                          # protoc decodes the Perfetto export with Perfetto's own schema (tests)
	ca-certificates git
)

# npm installs speedscope for a test (it opens the exports); a machine with NodeSource's nodejs
# already has npm, and Debian's npm package would conflict with it.
command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo="sudo"
	echo "installing: ${missing[*]}"
	$sudo apt-get update -q
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

if ! command -v go >/dev/null 2>&1; then
	if [ -x /usr/local/go/bin/go ]; then
		export PATH="$PATH:/usr/local/go/bin"
	else
		echo "Go 1.26 or newer is needed (https://go.dev/doc/install); Debian 12's golang package is too old." >&2
		exit 1
	fi
fi

# Each promise, tried: a package can be installed and still not work (a missing header is
# only found by compiling). Takes about a second.
deps_check() {
	local dir broken=()
	dir=$(mktemp -d)
	printf '#include <stdio.h>\nint main(void) { puts("ok"); return 0; }\n' >"$dir/ok.c"
	printf 'class Ok { public static void main(String[] a) { System.out.println("ok"); } }\n' >"$dir/Ok.java"

	go version 2>/dev/null | grep -Eq 'go1\.(2[6-9]|[3-9][0-9])' || broken+=("Go 1.26+ (found: $(go version 2>&1))")
	gcc -o "$dir/host" "$dir/ok.c" 2>"$dir/err" && [ "$("$dir/host")" = ok ] ||
		broken+=("gcc for this machine: $(tail -n 1 "$dir/err")")
	pkg-config --exists gl x11 xcursor xrandr xinerama xi xxf86vm wayland-client xkbcommon 2>/dev/null ||
		broken+=("X11/GL/Wayland headers for Fyne (pkg-config finds: $(pkg-config --list-all 2>/dev/null | grep -Ec '^(gl|x11|xcursor|xrandr|xinerama|xi|xxf86vm|wayland-client|xkbcommon) ') of 9)")
	local cc qemu
	for pair in arm-linux-gnueabihf-gcc:qemu-arm mipsel-linux-gnu-gcc:qemu-mipsel aarch64-linux-gnu-gcc:qemu-aarch64 gcc:qemu-x86_64; do
		cc=${pair%%:*} qemu=${pair##*:}
		if ! "$cc" -static -o "$dir/$cc" "$dir/ok.c" 2>"$dir/err"; then
			broken+=("$cc cannot build a C program: $(grep -m 1 -i error "$dir/err" || tail -n 1 "$dir/err")")
		elif [ "$("$qemu" "$dir/$cc" 2>"$dir/err")" != ok ]; then
			broken+=("$qemu cannot run a program $cc built: $(tail -n 1 "$dir/err")")
		fi
	done
	command -v arm-linux-gnueabihf-strip >/dev/null || broken+=("arm-linux-gnueabihf-strip")
	command -v llvm-mca-16 >/dev/null || broken+=("llvm-mca-16 (llvm-16)")
	command -v llvm-mca-19 >/dev/null || broken+=("llvm-mca-19 (llvm-19)")
	printf 'add r0, r0, r1\n' >"$dir/mca.s"
	llvm-mca-16 -mtriple=armv7a-linux-gnueabihf -mcpu=cortex-a9 "$dir/mca.s" 2>"$dir/err" | grep -q 'Total Cycles' ||
		broken+=("llvm-mca-16 cannot price a block: $(tail -n 1 "$dir/err")")
	if ! valgrind --tool=cachegrind --cache-sim=yes --cachegrind-out-file="$dir/cg.out" "$dir/gcc" >/dev/null 2>"$dir/err" ||
		! grep -q '^summary:' "$dir/cg.out"; then
		broken+=("valgrind's cachegrind cannot simulate a program: $(tail -n 1 "$dir/err")")
	fi
	if ! (cd "$dir" && javac Ok.java 2>err && [ "$(java -cp . Ok)" = ok ]); then
		broken+=("java/javac 17: $(tail -n 1 "$dir/err" 2>/dev/null)")
	elif [ ! -f "$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")/include/jvmti.h" ]; then
		broken+=("jvmti.h next to javac (the heap agent is built against it)")
	fi
	[ -f /usr/share/java/asm.jar ] && [ -f /usr/share/java/asm-commons.jar ] ||
		broken+=("ObjectWeb ASM in /usr/share/java (heap --mutations builds its Java agent with it)")
	if ! perf record -q -N -e cpu-clock -o "$dir/perf.data" -- true 2>"$dir/err"; then
		broken+=("perf cannot record (androprof vertical): $(tail -n 1 "$dir/err")")
	fi
	command -v xvfb-run >/dev/null && command -v Xvfb >/dev/null && command -v xauth >/dev/null &&
		command -v xdotool >/dev/null || broken+=("xvfb-run, Xvfb, xauth and xdotool")
	command -v sqlite3 >/dev/null || broken+=("sqlite3")
	command -v dmtracedump >/dev/null || broken+=("dmtracedump")
	printf '<p id=ok>ok</p>\n' >"$dir/ok.html"
	chromium --headless --no-sandbox --disable-gpu --dump-dom "file://$dir/ok.html" 2>/dev/null | grep -q 'id="ok"' ||
		broken+=("headless chromium cannot open a page")
	command -v protoc >/dev/null || broken+=("protoc (protobuf-compiler)")
	command -v npm >/dev/null || broken+=("npm")
	rm -rf "$dir"
	if [ ${#broken[@]} -gt 0 ]; then
		echo "scripts/deps.sh: installed, but these do not work:" >&2
		printf '  - %s\n' "${broken[@]}" >&2
		return 1
	fi
}
deps_check
