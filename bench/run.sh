#!/usr/bin/env bash
# `make bench`: the standard load scenarios, then docs/BENCHMARKS.md from their results.
#
# 1. RingCast: for each scenario a fresh release server on a free port, with an empty temporary
#    data directory and a copy of the shipped config whose limits let the bench in
#    (writesPerMinute 0: the bench pushes 5 times a second; maxViewers above the largest
#    scenario), then `ringcast bench` with the server's pid. The first scenario also records one
#    viewer's frames (--record-frames).
# 2. The yardstick: bench/baseline/broadcaster.c (a minimal libwebsockets broadcaster, built here
#    with cc) replays those frames at the same rate, measured by `ringcast bench --watch-only`.
#
# Settings come from the environment (the Makefile passes its BENCH_* variables):
#   BENCH_VIEWERS           RingCast scenarios, raw client          (100 500 1000 2000)
#   BENCH_LWS_VIEWERS       RingCast scenarios, libwebsockets client (300; empty: none)
#   BENCH_BASELINE_VIEWERS  C broadcaster scenarios                 (1000 2000; empty: none)
#   BENCH_FPS BENCH_DURATION BENCH_WARMUP BENCH_PUSH_INTERVAL BENCH_REPORT BENCH_RESULTS
# A scenario that fails is reported and fails the script.
set -u

viewers=${BENCH_VIEWERS-100 500 1000 2000}
lws_viewers=${BENCH_LWS_VIEWERS-300}
baseline_viewers=${BENCH_BASELINE_VIEWERS-1000 2000}
fps=${BENCH_FPS:-60}
duration=${BENCH_DURATION:-18}
warmup=${BENCH_WARMUP:-3}
push_interval=${BENCH_PUSH_INTERVAL:-0.2}
report=${BENCH_REPORT:-docs/BENCHMARKS.md}
keep=${BENCH_RESULTS:-}

ringcast=.build/release/ringcast
work=$(mktemp -d)
server=""
failed=""
results=""
baselines=""
trap 'if [ -n "$server" ]; then kill "$server" 2>/dev/null; fi; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# One descriptor a viewer, on both sides: as many as this shell may have.
ulimit -n "$(ulimit -Hn)"

# start NAME COMMAND...: runs COMMAND in the background and waits for its "listening on" line;
# sets $server and $url.
start() {
	local name=$1
	shift
	: >"$work/$name.out"
	"$@" >"$work/$name.out" 2>"$work/$name.err" &
	server=$!
	url=""
	for _ in $(seq 100); do
		url=$(sed -n 's/^listening on //p' "$work/$name.out")
		if [ -n "$url" ] || ! kill -0 "$server" 2>/dev/null; then break; fi
		sleep 0.1
	done
	if [ -z "$url" ]; then
		echo "$name did not start:"
		cat "$work/$name.err"
		exit 1
	fi
}

# stop: SIGTERM, then SIGKILL after 5 s.
stop() {
	kill -TERM "$server" 2>/dev/null
	for _ in $(seq 50); do kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
	kill -KILL "$server" 2>/dev/null
	wait "$server" 2>/dev/null
	server=""
}

python3 -c 'import json, sys; c = json.load(open(sys.argv[1])); c.setdefault("limits", {}).update(writesPerMinute=0, maxViewers=100000); json.dump(c, open(sys.argv[2], "w"), indent=2)' \
	config/ringcast.json "$work/ringcast.json" || exit 1

frames="$work/frames.bin"
record=(--record-frames "$frames")
scenarios=""
for count in $viewers; do scenarios="$scenarios raw:$count"; done
for count in $lws_viewers; do scenarios="$scenarios lws:$count"; done
for scenario in $scenarios; do
	client=${scenario%%:*}
	count=${scenario#*:}
	name="$client-$count"
	echo "== $count viewers, $client client"
	start "serve-$name" "$ringcast" serve --config "$work/ringcast.json" --port 0 --fps "$fps" \
		--data-dir "$work/data-$name" --log-level warning
	if "$ringcast" bench --server "$url" --server-pid "$server" --client "$client" --viewers "$count" \
		--duration "$duration" --warmup "$warmup" --push-interval "$push_interval" \
		--json "$work/bench-$name.json" "${record[@]}"; then
		results="$results $work/bench-$name.json"
		record=()
	else
		failed="$failed $name"
	fi
	stop
done

if [ -n "$baseline_viewers" ]; then
	if [ ! -s "$frames" ]; then
		echo "no frames were recorded, so the C broadcaster cannot run"
		failed="$failed baseline"
	else
		# cc, or the clang that comes with the Swift toolchain.
		compiler=${CC:-$(command -v cc || command -v clang)}
		"$compiler" -O2 -Wall -Wextra -Werror -o "$work/broadcaster" bench/baseline/broadcaster.c \
			$(pkg-config --cflags --libs libwebsockets) || exit 1
		for count in $baseline_viewers; do
			name="baseline-$count"
			echo "== $count viewers, the C libwebsockets broadcaster"
			start "$name" "$work/broadcaster" --frames "$frames" --port 0 --fps "$fps"
			if "$ringcast" bench --server "$url" --server-pid "$server" --watch-only --viewers "$count" \
				--duration "$duration" --warmup "$warmup" --json "$work/bench-$name.json"; then
				baselines="$baselines $work/bench-$name.json"
			else
				failed="$failed $name"
			fi
			stop
		done
	fi
fi

if [ -n "$results" ]; then
	"$ringcast" bench report --output "$report" --fps "$fps" --temporary-directory "$work" \
		--server-command "$ringcast serve --config \$TMP/ringcast.json --port 0 --fps $fps --data-dir \$TMP/data-CLIENT-VIEWERS --log-level warning" \
		--baseline-command "\$TMP/broadcaster --frames \$TMP/frames.bin --port 0 --fps $fps" \
		$(for file in $baselines; do echo "--baseline $file"; done) $results || exit 1
fi
if [ -n "$keep" ] && [ -n "$results" ]; then
	mkdir -p "$keep" && cp $results $baselines "$keep/"
fi
if [ -n "$failed" ]; then
	echo "failed scenarios:$failed"
	exit 1
fi
