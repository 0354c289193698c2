#!/usr/bin/env bash
# Riverbed quick start: writes a sample trips stream into a MERGE_ON_READ table with the Flink
# job on an embedded MiniCluster, then reads it back through the Spark DataSource: a snapshot,
# an incremental query and a time-travel query. Builds what it needs on the first run.
#
#   deploy/quickstart.sh [--records N] [--dir DIR]
#
# The table and the sample data go to DIR (default: target/quickstart under the repository).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RECORDS=3000
DIR="$ROOT/target/quickstart"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --records) RECORDS="$2"; shift 2 ;;
    --dir) DIR="$2"; shift 2 ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "quickstart: unknown argument '$1'" >&2; exit 2 ;;
  esac
done

TABLE="$DIR/trips"
rm -rf "$DIR"
mkdir -p "$DIR"

# A deterministic trips-like stream: uuid key, region/country/city partitions, ts ordering.
# Batch 1 inserts RECORDS trips; batch 2 updates a third of them (a fifth of those with an older
# ts, which must lose) and deletes every 25th trip with _hoodie_is_deleted.
generate() {
  awk -v n="$RECORDS" -v batch="$1" 'BEGIN {
    split("americas/united_states/san_francisco americas/brazil/sao_paulo asia/india/chennai europe/france/paris", parts, " ");
    srand(42);
    for (i = 0; i < n; i++) {
      split(parts[(i % 4) + 1], p, "/");
      uuid = sprintf("trip-%06d", i);
      fare = int(rand() * 9000) / 100 + 5;
      ts = 1000 + i;
      if (batch == 1) {
        printf "{\"uuid\":\"%s\",\"ts\":%d,\"rider\":\"rider-%03d\",\"driver\":\"driver-%02d\",\"fare\":%.2f,\"region\":\"%s\",\"country\":\"%s\",\"city\":\"%s\",\"_hoodie_is_deleted\":false}\n", uuid, ts, i % 500, i % 40, fare, p[1], p[2], p[3];
      } else if (i % 25 == 0) {
        printf "{\"uuid\":\"%s\",\"ts\":%d,\"rider\":\"rider-%03d\",\"driver\":\"driver-%02d\",\"fare\":%.2f,\"region\":\"%s\",\"country\":\"%s\",\"city\":\"%s\",\"_hoodie_is_deleted\":true}\n", uuid, ts + 5000, i % 500, i % 40, fare, p[1], p[2], p[3];
      } else if (i % 3 == 0) {
        newts = (i % 15 == 0) ? ts - 1 : ts + 5000;
        printf "{\"uuid\":\"%s\",\"ts\":%d,\"rider\":\"rider-%03d\",\"driver\":\"driver-%02d\",\"fare\":%.2f,\"region\":\"%s\",\"country\":\"%s\",\"city\":\"%s\",\"_hoodie_is_deleted\":false}\n", uuid, newts, i % 500, i % 40, fare * 2, p[1], p[2], p[3];
      }
    }
  }'
}
generate 1 > "$DIR/trips-1.jsonl"
generate 2 > "$DIR/trips-2.jsonl"
cat > "$DIR/trips.avsc" <<'AVSC'
{"type":"record","name":"trips_record","namespace":"hoodie.trips","fields":[
  {"name":"uuid","type":"string"},
  {"name":"ts","type":"long"},
  {"name":"rider","type":["null","string"],"default":null},
  {"name":"driver","type":["null","string"],"default":null},
  {"name":"fare","type":["null","double"],"default":null},
  {"name":"region","type":"string"},
  {"name":"country","type":"string"},
  {"name":"city","type":"string"},
  {"name":"_hoodie_is_deleted","type":["null","boolean"],"default":null}]}
AVSC
echo "quickstart: sample data: $(wc -l < "$DIR/trips-1.jsonl") inserts, $(wc -l < "$DIR/trips-2.jsonl") updates and deletes in $DIR"

write() {
  "$ROOT/deploy/bin/riverbed-write" --source file --input "$1" --schema "$DIR/trips.avsc" \
    --table-path "$TABLE" --table-name trips --table-type MERGE_ON_READ \
    --record-key uuid --precombine ts --partition-path region,country,city \
    --checkpoint-interval 2s --parallelism 2
}
commits() {
  ls "$TABLE/.hoodie" | grep -E '^[0-9]+\.(deltacommit|commit)$' | sed 's/\..*//' | sort
}

echo "quickstart: writing batch 1 (Flink MiniCluster)..."
write "$DIR/trips-1.jsonl"
for c in $(commits); do echo "quickstart: committed $c"; done
FIRST="$(commits | tail -n 1)"
echo "quickstart: writing batch 2 (updates and deletes)..."
write "$DIR/trips-2.jsonl"
for c in $(commits | awk -v f="$FIRST" '$0 > f'); do echo "quickstart: committed $c"; done

read_table() {
  "$ROOT/deploy/bin/riverbed-read" --table "$TABLE" "$@"
}
echo
echo "== snapshot: trips per city (Spark SQL over the table)"
read_table --sql "SELECT region, country, city, count(*) AS trips, round(sum(fare), 2) AS fares FROM t GROUP BY region, country, city ORDER BY city" --output table
echo "== incremental: what changed after $FIRST (first 5 rows)"
read_table --query incremental --begin "$FIRST" --limit 5 --output table \
  --sql "SELECT _hoodie_commit_time, uuid, ts, fare, city FROM t ORDER BY uuid"
echo "== time travel: the table as of $FIRST (counts)"
read_table --as-of "$FIRST" --sql "SELECT count(*) AS trips, min(ts) AS min_ts, max(ts) AS max_ts FROM t" --output table
echo "quickstart: table at $TABLE"
