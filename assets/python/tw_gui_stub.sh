#!/bin/sh
# tuplewright: a GUI program a setup script launches (google-chrome, DISPLAY=:0 ...). This
# environment has no screen here, so the launch is recorded and succeeds doing nothing. The hook
# for a screen: when TW_SCREEN_LAUNCH names a program, it is run with this program's name and
# arguments instead (the screen work wires it to the environment's display).
name=${0##*/}
# One line, one write: stubs started together (a setup launching Calc and Writer back to back)
# append at the same moment, and a line written word by word interleaved with the other's.
line=$name
for a in "$@"; do line="$line $a"; done
printf '%s\n' "$line" >> /tmp/.tw/gui/launches 2>/dev/null
if [ -n "$TW_SCREEN_LAUNCH" ]; then
  exec "$TW_SCREEN_LAUNCH" "$name" "$@"
fi
exit 0
