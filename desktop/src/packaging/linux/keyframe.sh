#!/bin/sh
# Keyframe's launcher on Linux (the `keyframe` file of an installation): runs the self-updating launcher on the
# installation's own Node runtime, which runs the service of <root>/current. Without options it opens the app;
# --headless runs the service alone; options after -- go to the service (keyframe --help lists the launcher's).
root=$(dirname "$(readlink -f "$0")")
exec "$root/runtime/node" "$root/launcher.mjs" --root "$root" --node "$root/runtime/node" --entry core/dist/bundle/keyframe.mjs "$@"
