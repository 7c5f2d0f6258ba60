#!/bin/sh
# bench_gate.sh DIR COMMAND...: the test board's exec wrapper (e2e_test.py). It runs COMMAND,
# except when DIR/hold exists and COMMAND mentions the word in it (the benchmark's name): then
# it first creates DIR/entered and waits until the test writes a line into the FIFO
# DIR/release. So the test decides when a benchmark ends, instead of hoping it is still
# running: the overlap of two runs is arranged, whatever the machine's load.
dir=$1
shift
if [ -f "$dir/hold" ]; then
  case " $* " in
    *"$(cat -- "$dir/hold")"*)
      : > "$dir/entered"
      read -r _ < "$dir/release"
      ;;
  esac
fi
exec "$@"
