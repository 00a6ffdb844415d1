#!/bin/sh
# Removes Keyframe's installation: the files install.sh wrote (the install folder, the menu entry, the icons) and
# the start-with-the-computer entry the app wrote. A file there that Keyframe did not write stays, and so do your
# settings and videos: this script names where they are.
set -eu
root=$(cd "$(dirname "$0")" && pwd -P)
data_home=${XDG_DATA_HOME:-$HOME/.local/share}
config_home=${XDG_CONFIG_HOME:-$HOME/.config}

if [ ! -f "$root/.keyframe-install" ]; then
  echo "uninstall.sh: $root is not a Keyframe installation: nothing was removed." >&2
  exit 1
fi

remove_if_marked() { # <file> <line only Keyframe's own file has>
  if [ -f "$1" ] && grep -qx "$2" "$1"; then rm -f "$1"; fi
}
remove_if_marked "$data_home/applications/keyframe.desktop" X-Keyframe-Install=true
remove_if_marked "$config_home/autostart/keyframe.desktop" X-Keyframe-Autostart=true
for icon in "$root"/share/icons/hicolor/*/apps/keyframe.png; do
  target=$data_home/icons/hicolor/${icon#"$root/share/icons/hicolor/"}
  if [ -f "$target" ] && cmp -s "$icon" "$target"; then rm -f "$target"; fi
done

for item in keyframe launcher.mjs runtime share versions current install.sh uninstall.sh VERSION .keyframe-install; do
  rm -rf "${root:?}/$item"
done
# Only when nothing else is left in them.
rmdir "$root" "$(dirname "$root")" 2>/dev/null || true

videos=$(sed -n 's/^XDG_VIDEOS_DIR="\(.*\)"$/\1/p' "$config_home/user-dirs.dirs" 2>/dev/null | sed "s|\$HOME|$HOME|")
echo "Keyframe is uninstalled."
echo "Your settings were kept in $config_home/keyframe and your videos in ${videos:-$HOME/Videos}/Keyframe;"
echo "delete those folders yourself if you no longer want them."
