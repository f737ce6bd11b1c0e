#!/usr/bin/env bash
# Mutation testing (stryker.config.mjs). Where it can, it mounts an exFAT image, a disk without
# hard links, for the placing tests to run on as well: the placing code has a fallback for such
# disks that no test on this machine's own disk reaches. Where it cannot, it says why and runs
# without. Arguments go to `stryker run`.
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/exfat.sh
if mount_exfat 256M; then
  export ASSET_SYNC_TEST_NO_HARDLINKS_DIR="$EXFAT_MNT"
else
  echo "test:mutation: no disk without hard links ($EXFAT_WHY): the placing fallback for such disks goes untested"
fi
npx stryker run stryker.config.mjs "$@"
