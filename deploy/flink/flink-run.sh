#!/usr/bin/env bash
# flink-run.sh TARGET ADDRESS JOB-FLAGS...: submits Riverbed's write job jar, detached, to a running
# Flink 1.20 session cluster with Flink's own command line (bin/flink run). Page:
# docs/clusters/FLINK_SESSIONS.md.
#
#   flink-run.sh standalone HOST:PORT ...                 a standalone session (its REST address)
#   flink-run.sh yarn-session APPLICATION_ID ...          a YARN session (yarn-session.sh -d)
#   flink-run.sh kubernetes-session CLUSTER_ID ...        a native Kubernetes session (kubernetes-session.sh)
#
# JOB-FLAGS are the job's (riverbed-write --help), e.g.
#   flink-run.sh standalone jobmanager:8081 --source kafka --bootstrap-servers kafka:9092 --topic trips \
#     --schema /etc/riverbed/trips.avsc --table-path s3a://lake/warehouse/trips --table-name trips \
#     --table-type MERGE_ON_READ --record-key uuid --precombine ts --partition-path region,country,city \
#     --checkpoint-interval 30s --checkpoint-dir s3a://lake/flink/checkpoints/trips
#
# Environment: FLINK_HOME (the Flink 1.20 distribution whose bin/flink runs), RIVERBED_JOB_JAR
# (default: flink-writer/target/riverbed-flink-writer-*-job.jar of this checkout), FLINK_RUN_OPTS
# (more options for flink run, e.g. "-p 4" or "-Dexecution.checkpointing.savepoint-dir=...").
# The cluster needs Hadoop on its classpath for hdfs:// or s3a:// (HADOOP_CLASSPATH, HADOOP_CONF_DIR).
set -euo pipefail
usage() { sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[[ $# -ge 2 ]] || usage
target="$1"
address="$2"
shift 2
case "$target" in
  standalone) where=(-m "$address") ;;
  yarn-session) where=(-t yarn-session "-Dyarn.application.id=$address") ;;
  kubernetes-session) where=(-t kubernetes-session "-Dkubernetes.cluster-id=$address") ;;
  *) usage ;;
esac
: "${FLINK_HOME:?set FLINK_HOME to a Flink 1.20 distribution}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
jar="${RIVERBED_JOB_JAR:-$(ls "$root"/flink-writer/target/riverbed-flink-writer-*-job.jar 2>/dev/null | head -n 1 || true)}"
[[ -f "$jar" ]] || { echo "flink-run.sh: no job jar; build it: mvn -pl flink-writer -am package -DskipTests" >&2; exit 1; }
# shellcheck disable=SC2086
exec "$FLINK_HOME/bin/flink" run "${where[@]}" -d ${FLINK_RUN_OPTS:-} "$jar" "$@"
