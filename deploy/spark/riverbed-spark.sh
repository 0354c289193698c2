#!/usr/bin/env bash
# riverbed-spark.sh TOOL [ARGS...]: runs a Spark 3.5 tool of SPARK_HOME with Riverbed's reader on
# its classpath. Page: docs/clusters/SPARK.md.
#
#   riverbed-spark.sh spark-shell --master yarn                      then spark.read.format("hudi").load(path)
#   riverbed-spark.sh pyspark --master yarn
#   riverbed-spark.sh spark-submit --master yarn my_job.py ARGS       your application (Python, Scala, Java)
#   riverbed-spark.sh spark-submit --master yarn --class io.riverbed.spark.ReadMain \
#     spark-reader/target/riverbed-spark-reader-0.1.0-SNAPSHOT-bundle.jar --table s3a://lake/warehouse/trips --output table
#
# It adds --jars with the reader's bundle jar (the DataSource 'hudi', also 'riverbed' and
# io.riverbed.spark.HudiDataSource) and --conf spark.sql.catalog.spark_catalog=io.riverbed.spark.RiverbedCatalog,
# which Spark SQL needs to read tables of provider hudi by name (a later --conf overrides it). Every
# other argument goes to the tool unchanged. Environment: SPARK_HOME (a Spark 3.5 distribution),
# RIVERBED_SPARK_JAR (default: spark-reader/target/riverbed-spark-reader-*-bundle.jar of this checkout).
set -euo pipefail
usage() { sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[[ $# -ge 1 ]] || usage
tool="$1"
shift
case "$tool" in
  spark-submit|spark-shell|pyspark) ;;
  *) usage ;;
esac
: "${SPARK_HOME:?set SPARK_HOME to a Spark 3.5 distribution}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
jar="${RIVERBED_SPARK_JAR:-$(ls "$root"/spark-reader/target/riverbed-spark-reader-*-bundle.jar 2>/dev/null | head -n 1 || true)}"
[[ -f "$jar" ]] || { echo "riverbed-spark.sh: no bundle jar; build it: mvn -pl spark-reader -am package -DskipTests" >&2; exit 1; }
exec "$SPARK_HOME/bin/$tool" --jars "$jar" --conf spark.sql.catalog.spark_catalog=io.riverbed.spark.RiverbedCatalog "$@"
