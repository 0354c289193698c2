#!/usr/bin/env bash
# Riverbed quick start: writes a sample trips stream into a MERGE_ON_READ table with the Flink
# job on an embedded MiniCluster, then reads it back through the Spark DataSource: a snapshot,
# an incremental query and a time-travel query. Builds what it needs on the first run.
#
#   deploy/quickstart.sh [--records N] [--dir DIR] [--kafka]
#
# The table and the sample data go to DIR (default: target/quickstart under the repository).
# --kafka: start a local single-node Kafka KRaft broker (the jars of kafka-broker-libs, built if
# missing), produce the sample JSON lines to the topic 'trips' and stream them from there
# (--source kafka --bounded); the broker is stopped on exit. See docs/QUICKSTART.md.
# RIVERBED_NO_BUILD=1: fail instead of building a missing jar (the build's own test of this script).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RECORDS=3000
DIR="$ROOT/target/quickstart"
KAFKA=0
JAVA="${JAVA:-java}"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --records) RECORDS="$2"; shift 2 ;;
    --dir) DIR="$2"; shift 2 ;;
    --kafka) KAFKA=1; shift ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
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

# The writer's log: Riverbed's lifecycle lines (INFO), warnings of everything else, minus two
# harmless Flink warnings a bounded job prints when its sources finish.
if [[ -z "${RIVERBED_LOG_CONFIG:-}" ]]; then
  export RIVERBED_LOG_CONFIG="$DIR/log4j2.properties"
  # The launchers' default config, plus the loggers of those warnings, Flink metrics and Kafka.
  cp "$ROOT/deploy/bin/lib/log4j2.properties" "$RIVERBED_LOG_CONFIG"
  cat >> "$RIVERBED_LOG_CONFIG" <<'LOG'
logger.jobmaster.name = org.apache.flink.runtime.jobmaster.JobMaster
logger.jobmaster.level = ERROR
logger.metrics.name = org.apache.flink.runtime.metrics.groups
logger.metrics.level = ERROR
logger.metrics2.name = org.apache.flink.metrics
logger.metrics2.level = ERROR
logger.kafka.name = org.apache.kafka
logger.kafka.level = ERROR
LOG
fi

# --kafka: a single-node KRaft broker in a child JVM, as the tests run it
# (flink-writer/src/test/java/io/riverbed/flink/kafka/KafkaBroker.java).
BROKER_PID=""
stop_broker() {
  if [[ -n "$BROKER_PID" ]] && kill -0 "$BROKER_PID" 2>/dev/null; then
    echo "quickstart: stopping the Kafka broker"
    kill "$BROKER_PID" 2>/dev/null || true
    for _ in $(seq 1 40); do kill -0 "$BROKER_PID" 2>/dev/null || break; sleep 0.5; done
    kill -9 "$BROKER_PID" 2>/dev/null || true
  fi
}
free_port() {
  local p
  while true; do
    p=$(( 20000 + RANDOM % 40000 ))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return; fi
  done
}
start_broker() {
  local libs="$ROOT/kafka-broker-libs/target/libs"
  if [[ ! -d "$libs" ]]; then
    if [[ -n "${RIVERBED_NO_BUILD:-}" ]]; then
      echo "quickstart: $libs is missing, and RIVERBED_NO_BUILD is set" >&2
      exit 1
    fi
    echo "quickstart: building kafka-broker-libs (copies the Kafka broker's jars to $libs)..."
    (cd "$ROOT" && mvn -B -ntp -q -pl kafka-broker-libs package)
  fi
  KAFKA_CP="$libs/*"
  local k="$DIR/kafka" port controller cluster
  port="$(free_port)"
  controller="$(free_port)"
  while [[ "$controller" == "$port" ]]; do controller="$(free_port)"; done
  mkdir -p "$k/tmp"
  cat > "$k/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$controller
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$controller
advertised.listeners=PLAINTEXT://127.0.0.1:$port
controller.listener.names=CONTROLLER
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$k/data
num.partitions=2
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=true
PROPS
  cat > "$k/log4j.properties" <<'PROPS'
log4j.rootLogger=WARN, out
log4j.appender.out=org.apache.log4j.ConsoleAppender
log4j.appender.out.layout=org.apache.log4j.PatternLayout
log4j.appender.out.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.server.KafkaRaftServer=INFO
PROPS
  KAFKA_JVM=("$JAVA" -Xmx384m -XX:+UseSerialGC "-Djava.io.tmpdir=$k/tmp" "-Dlog4j.configuration=file:$k/log4j.properties" -cp "$KAFKA_CP")
  cluster=-
  while [[ "$cluster" == -* ]]; do  # an id starting with '-' would read as a flag of the storage tool
    cluster="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n' | cut -c1-22)"
  done
  "${KAFKA_JVM[@]}" kafka.tools.StorageTool format -t "$cluster" -c "$k/server.properties" > "$k/format.log" 2>&1 \
    || { cat "$k/format.log" >&2; echo "quickstart: formatting the Kafka storage failed" >&2; exit 1; }
  "${KAFKA_JVM[@]}" kafka.Kafka "$k/server.properties" > "$k/broker.log" 2>&1 &
  BROKER_PID=$!
  trap stop_broker EXIT
  trap 'exit 130' INT TERM
  for _ in $(seq 1 180); do
    if grep -q "Kafka Server started" "$k/broker.log"; then
      BOOTSTRAP="127.0.0.1:$port"
      echo "quickstart: Kafka broker (KRaft, pid $BROKER_PID) at $BOOTSTRAP, log $k/broker.log"
      return
    fi
    kill -0 "$BROKER_PID" 2>/dev/null || break
    sleep 0.5
  done
  tail -n 40 "$k/broker.log" >&2
  echo "quickstart: the Kafka broker did not start" >&2
  exit 1
}
produce() {
  "${KAFKA_JVM[@]}" kafka.tools.ConsoleProducer --bootstrap-server "$BOOTSTRAP" --topic trips \
    --producer-property acks=all < "$1" > "$DIR/kafka/producer.log" 2>&1 \
    || { cat "$DIR/kafka/producer.log" >&2; echo "quickstart: producing $1 failed" >&2; exit 1; }
  echo "quickstart: produced $(wc -l < "$1") JSON lines of $(basename "$1") to topic 'trips'"
}

write() {
  local source=(--source file --input "$1")
  if [[ "$KAFKA" == 1 ]]; then
    produce "$1"
    # A bounded read from the group's committed offsets (earliest on the first run): the second
    # run continues where the first one's last checkpoint left the consumer group.
    source=(--source kafka --bootstrap-servers "$BOOTSTRAP" --topic trips --group-id riverbed-quickstart --bounded)
  fi
  "$ROOT/deploy/bin/riverbed-write" "${source[@]}" --schema "$DIR/trips.avsc" \
    --table-path "$TABLE" --table-name trips --table-type MERGE_ON_READ \
    --record-key uuid --precombine ts --partition-path region,country,city \
    --checkpoint-interval 2s --parallelism 2
}
commits() {
  ls "$TABLE/.hoodie" | grep -E '^[0-9]+\.(deltacommit|commit)$' | sed 's/\..*//' | sort
}

if [[ "$KAFKA" == 1 ]]; then
  start_broker
fi
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
