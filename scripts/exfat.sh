# Sourced by the test scripts: mount_exfat SIZE mounts an exFAT image through FUSE at $EXFAT_MNT
# and unmounts it when the script exits. exFAT folds case as Windows and external drives do, and
# holds no hard links and no symlinks: the disks the engine's fallbacks are for. Needs root, a
# loop device and /dev/fuse; where any is missing it returns 1 with the reason in $EXFAT_WHY.

EXFAT_MNT=""
EXFAT_WHY=""
_exfat_work=""
_exfat_loop=""

_exfat_cleanup() {
  [ -n "$EXFAT_MNT" ] && mountpoint -q "$EXFAT_MNT" && umount "$EXFAT_MNT" || true
  [ -n "$_exfat_loop" ] && losetup -d "$_exfat_loop" || true
  [ -n "$_exfat_work" ] && rm -rf "$_exfat_work" || true
}

mount_exfat() {
  local size="$1"
  [ "$(id -u)" = 0 ] || { EXFAT_WHY="needs root (losetup and mount)"; return 1; }
  [ -e /dev/fuse ] || { EXFAT_WHY="no /dev/fuse"; return 1; }
  if ! command -v mount.exfat-fuse >/dev/null || ! command -v mkfs.exfat >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    { apt-get install -y exfat-fuse exfatprogs >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y exfat-fuse exfatprogs >/dev/null; }; } \
      || { EXFAT_WHY="could not install exfat-fuse and exfatprogs"; return 1; }
  fi
  _exfat_work=$(mktemp -d)
  trap _exfat_cleanup EXIT
  mkdir "$_exfat_work/mnt"
  truncate -s "$size" "$_exfat_work/disk.img"
  mkfs.exfat "$_exfat_work/disk.img" >/dev/null
  _exfat_loop=$(losetup -f --show "$_exfat_work/disk.img" 2>/dev/null) || { _exfat_loop=""; EXFAT_WHY="no free loop device"; return 1; }
  mount.exfat-fuse "$_exfat_loop" "$_exfat_work/mnt" >/dev/null 2>&1 || { EXFAT_WHY="mount.exfat-fuse failed"; return 1; }
  EXFAT_MNT="$_exfat_work/mnt"
}
