#!/bin/sh
# Install Debian's Chromium for the browser tests when it is missing (root, or sudo when available).
set -e
[ -x /usr/bin/chromium ] && exit 0
SUDO=""
[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
