# Sourced by the tests that run Windows builds under wine (tests/windows_test.sh,
# tests/release_test.sh); WINEPREFIX must be set.

# wine_start LOG: makes or updates the prefix (wineboot's output in LOG) and waits until
# every process it started has ended, so that no engine run races a first-run wineboot;
# then keeps one wineserver up until the calling script exits, because a wine started
# while the last one's server shuts down fails with 'recvmsg: Connection reset by peer'
# and prints nothing.
wine_start() {
    timeout -k 5 300 wine wineboot -i >"$1" 2>&1
    timeout 60 wineserver -w
    wineserver -p
    trap 'wineserver -k 2>/dev/null' EXIT
}
