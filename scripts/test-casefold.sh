#!/usr/bin/env bash
# The case-only rename tests on a case-insensitive disk: an exFAT image mounted through FUSE
# (exFAT folds case as Windows and external drives do). Linux disks are case-sensitive, so
# without this those tests are skipped. Needs root, a loop device and /dev/fuse; where any is
# missing it says so and exits 0 (the rest of the suite does not depend on it).
set -euo pipefail
cd "$(dirname "$0")/.."

skip() { echo "test:casefold skipped: $*"; exit 0; }
[ "$(id -u)" = 0 ] || skip "needs root (losetup and mount)"
[ -e /dev/fuse ] || skip "no /dev/fuse"
if ! command -v mount.exfat-fuse >/dev/null || ! command -v mkfs.exfat >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  { apt-get install -y exfat-fuse exfatprogs >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y exfat-fuse exfatprogs >/dev/null; }; } \
    || skip "could not install exfat-fuse and exfatprogs"
fi

work=$(mktemp -d)
mnt="$work/mnt"
loop=""
cleanup() {
  mountpoint -q "$mnt" && umount "$mnt" || true
  [ -n "$loop" ] && losetup -d "$loop" || true
  rm -rf "$work"
}
trap cleanup EXIT
mkdir "$mnt"
truncate -s 2G "$work/disk.img"
mkfs.exfat "$work/disk.img" >/dev/null
loop=$(losetup -f --show "$work/disk.img" 2>/dev/null) || skip "no free loop device"
mount.exfat-fuse "$loop" "$mnt" >/dev/null 2>&1 || skip "mount.exfat-fuse failed"

if [ "${1:-}" = "--all" ]; then
  # The whole integration suite (about 2.5 min): how the engine fares on a FAT-family drive.
  echo "test:casefold: the whole integration suite on exFAT at $mnt"
  TMPDIR="$mnt" npx vitest run test/integration
else
  echo "test:casefold: case-only renames and names on exFAT at $mnt"
  TMPDIR="$mnt" npx vitest run test/integration/executor-folder-case.test.ts test/integration/engine-folder-case.test.ts test/integration/engine-names.test.ts
fi
