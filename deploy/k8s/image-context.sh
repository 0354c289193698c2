#!/usr/bin/env bash
# image-context.sh DIR: the build context of deploy/k8s/Dockerfile in DIR:
#   DIR/usrlib/riverbed-flink-writer-job.jar   the job jar (built with Maven if missing)
#   DIR/lib/                                    Hadoop's client and s3a: hadoop-client-api,
#                                               hadoop-client-runtime, hadoop-aws and the AWS SDK v1
#                                               bundle, at the versions of the root pom
#                                               (hadoop.version, aws.sdk.v1.version)
# Maven downloads the Hadoop jars into the local repository (the SDK bundle is about 280 MB).
set -euo pipefail
[[ $# -eq 1 ]] || { echo "usage: $0 DIR" >&2; exit 2; }
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="$(mkdir -p "$1" && cd "$1" && pwd)"
prop() { sed -n "s:.*<$1>\(.*\)</$1>.*:\1:p" "$root/pom.xml" | head -n 1; }
hadoop="$(prop hadoop.version)"
sdk="$(prop aws.sdk.v1.version)"

jar="$(ls "$root"/flink-writer/target/riverbed-flink-writer-*-job.jar 2>/dev/null | head -n 1 || true)"
if [[ -z "$jar" ]]; then
  (cd "$root" && mvn -B -ntp -q -pl flink-writer -am package -DskipTests)
  jar="$(ls "$root"/flink-writer/target/riverbed-flink-writer-*-job.jar | head -n 1)"
fi
mkdir -p "$out/usrlib" "$out/lib"
cp "$jar" "$out/usrlib/riverbed-flink-writer-job.jar"
for artifact in org.apache.hadoop:hadoop-client-api:"$hadoop" org.apache.hadoop:hadoop-client-runtime:"$hadoop" \
                org.apache.hadoop:hadoop-aws:"$hadoop" com.amazonaws:aws-java-sdk-bundle:"$sdk"; do
  (cd "$root" && mvn -B -ntp -q -N dependency:copy -Dartifact="$artifact" -DoutputDirectory="$out/lib")
done
ls -1 "$out/usrlib" "$out/lib"
