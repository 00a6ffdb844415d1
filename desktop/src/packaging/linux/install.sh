#!/bin/sh
# Installs Keyframe for this user, without administrator rights: this folder is copied to
# ${XDG_DATA_HOME:-~/.local/share}/keyframe/app, and a menu entry and its icons are written. Run it again from a newer
# package to install that version beside the current one (the update folder the app itself uses).
set -eu
source_root=$(cd "$(dirname "$0")" && pwd -P)
data_home=${XDG_DATA_HOME:-$HOME/.local/share}
root=$data_home/keyframe/app
version=$(cat "$source_root/VERSION")
menu_entry=$data_home/applications/keyframe.desktop
marker=X-Keyframe-Install=true

if [ -e "$root" ] && [ ! -f "$root/.keyframe-install" ]; then
  echo "install.sh: $root exists but is not a Keyframe installation: nothing was changed." >&2
  exit 1
fi
if [ "$source_root" != "$root" ]; then
  mkdir -p "$root/versions"
  # The installation's own files: replaced whole. A version folder that exists is the same release: kept.
  for item in keyframe launcher.mjs runtime share install.sh uninstall.sh VERSION .keyframe-install; do
    rm -rf "$root/$item"
    cp -a "$source_root/$item" "$root/$item"
  done
  [ -d "$root/versions/$version" ] || cp -a "$source_root/versions/$version" "$root/versions/$version"
  # Switched in one rename, as the updater does: `current` never names a half-copied version.
  ln -sfn "versions/$version" "$root/.current-new"
  mv -T "$root/.current-new" "$root/current"
fi

# The Exec key's quoting (Desktop Entry specification): reserved characters escaped inside quotes, % doubled,
# then every backslash doubled for the key's value.
exec_path=$(printf '%s' "$root/keyframe" | sed -e 's/[\\"`$]/\\&/g' -e 's/%/%%/g' -e 's/\\/\\\\/g')
if [ -f "$menu_entry" ] && ! grep -qx "$marker" "$menu_entry"; then
  echo "install.sh: $menu_entry is not Keyframe's: left as it is (no menu entry written)." >&2
else
  mkdir -p "$(dirname "$menu_entry")"
  cat > "$menu_entry" <<ENTRY
[Desktop Entry]
Type=Application
Version=1.0
Name=Keyframe
GenericName=Game recorder
Comment=Records your games in the background
Exec="$exec_path"
Icon=keyframe
Terminal=false
Categories=AudioVideo;Recorder;Game;
Keywords=record;replay;clip;game;
StartupWMClass=Keyframe
$marker
ENTRY
fi

for icon in "$root"/share/icons/hicolor/*/apps/keyframe.png; do
  target=$data_home/icons/hicolor/${icon#"$root/share/icons/hicolor/"}
  if [ -f "$target" ] && ! cmp -s "$icon" "$target"; then
    echo "install.sh: $target is not Keyframe's: left as it is." >&2
    continue
  fi
  mkdir -p "$(dirname "$target")"
  cp "$icon" "$target"
done

echo "Keyframe $version is installed in $root."
echo "Start it from your applications menu (Keyframe), or run $root/keyframe."
echo "To remove it: $root/uninstall.sh"
