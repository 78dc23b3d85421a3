#!/usr/bin/env bash
# System packages the tests need, on Debian/Ubuntu:
#   chromium   the browser the e2e tests drive, and its SwiftShader Vulkan driver
#              (/usr/lib/chromium/vk_swiftshader_icd.json), the software GPU used when there is no real one;
#   libvulkan1 the Vulkan loader that Dawn (npm `webgpu`) needs for the kernel tests in Node;
#   python3, python3-numpy  what the exported TRL scripts are compiled and their reward functions run with
#              (test/lab/export_trl*.test.ts, reward_setting.test.ts: they fail without them).
# Installs only what is missing. Needs root (or sudo) when something is missing.
set -euo pipefail

missing=()
[[ -x /usr/bin/chromium ]] || missing+=(chromium)
if ! { ldconfig -p 2>/dev/null | grep -q 'libvulkan\.so\.1 '; } &&
  ! compgen -G '/usr/lib/*/libvulkan.so.1' >/dev/null &&
  ! compgen -G '/lib/*/libvulkan.so.1' >/dev/null; then
  missing+=(libvulkan1)
fi
command -v python3 >/dev/null || missing+=(python3)
python3 -c "import numpy" 2>/dev/null || missing+=(python3-numpy)

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: chromium, libvulkan1, python3 and numpy are already installed"
  exit 0
fi

if [[ $(id -u) -eq 0 ]]; then
  as_root=()
elif command -v sudo >/dev/null; then
  as_root=(sudo)
else
  echo "install-deps: need root to install ${missing[*]} (not root, and no sudo)" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
"${as_root[@]}" apt-get update
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
