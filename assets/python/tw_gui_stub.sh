#!/bin/sh
# tuplewright: a GUI program a setup script launches (google-chrome, DISPLAY=:0 ...). This
# environment has no screen here, so the launch is recorded and succeeds doing nothing. The hook
# for a screen: when TW_SCREEN_LAUNCH names a program, it is run with this program's name and
# arguments instead (the screen work wires it to the environment's display).
name=${0##*/}
{
  printf '%s' "$name"
  for a in "$@"; do printf ' %s' "$a"; done
  printf '\n'
} >> /tmp/.tw/gui/launches 2>/dev/null
if [ -n "$TW_SCREEN_LAUNCH" ]; then
  exec "$TW_SCREEN_LAUNCH" "$name" "$@"
fi
exit 0
