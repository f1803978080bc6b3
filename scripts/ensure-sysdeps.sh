#!/usr/bin/env bash
# Installs the Debian packages the tests need when they are missing:
# chromium (browser tests), shellcheck (deploy scripts), espeak-ng (speech), systemd (systemd-analyze).
set -euo pipefail
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v shellcheck >/dev/null 2>&1 || missing+=(shellcheck)
command -v espeak-ng >/dev/null 2>&1 || missing+=(espeak-ng)
command -v systemd-analyze >/dev/null 2>&1 || missing+=(systemd)
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "Missing system packages: ${missing[*]} (run as root, or: sudo apt-get install ${missing[*]})" >&2
    exit 0
fi
echo "Installing system packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
