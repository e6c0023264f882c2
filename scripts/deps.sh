#!/usr/bin/env bash
# Installs what the workbench and its tests need on Debian 12, when missing. Shared by
# workbench.sh, test.sh and .ci/run so the three never disagree.
set -euo pipefail

packages=(
	gcc libc6-dev pkg-config                                   # cgo for Fyne's GL driver
	libgl1-mesa-dev libx11-dev libxcursor-dev libxrandr-dev    # X11/GL headers (style.md)
	libxinerama-dev libxi-dev libxxf86vm-dev
	libwayland-dev libxkbcommon-dev wayland-protocols          # Fyne 2.8's GLFW builds Wayland too
	xvfb xauth                                                 # windows without a screen (tests, screenshots)
	qemu-user gcc-arm-linux-gnueabihf gcc-mipsel-linux-gnu     # real guests for the emulator tests
	sqlite3                                                    # users (and a test) open the workspace with it
	openjdk-17-jdk-headless                                    # the JVMTI heap agent: jvmti.h, java, javac
	ca-certificates git
)

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
