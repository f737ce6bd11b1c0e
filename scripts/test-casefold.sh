#!/usr/bin/env bash
# The case-only rename tests on a case-insensitive disk: an exFAT image mounted through FUSE
# (exFAT folds case as Windows and external drives do). Linux disks are case-sensitive, so
# without this those tests are skipped. Needs root, a loop device and /dev/fuse; where any is
# missing it says so and exits 0 (the rest of the suite does not depend on it).
set -euo pipefail
cd "$(dirname "$0")/.."

skip() { echo "test:casefold skipped: $*"; exit 0; }
. scripts/exfat.sh
mount_exfat 2G || skip "$EXFAT_WHY"
mnt="$EXFAT_MNT"

if [ "${1:-}" = "--all" ]; then
  # The whole integration suite (about 2.5 min): how the engine fares on a FAT-family drive.
  echo "test:casefold: the whole integration suite on exFAT at $mnt"
  TMPDIR="$mnt" npx vitest run test/integration
else
  echo "test:casefold: case-only renames, names and placing files without hard links on exFAT at $mnt"
  TMPDIR="$mnt" npx vitest run test/integration/executor-folder-case.test.ts test/integration/engine-folder-case.test.ts test/integration/engine-names.test.ts test/unit/place-file.test.ts
fi
