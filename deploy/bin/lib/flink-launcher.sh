# Shared by riverbed-write and riverbed-sql: builds flink-writer when its jar is missing or older
# than the sources, assembles the runtime classpath, and runs a main class with Flink's Java 17
# flags. The caller sets NAME (its own name, for messages) and MAIN, then calls run_flink_main.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
MODULE="$ROOT/flink-writer"
# written by every build of flink-writer (dependency:build-classpath, test scope)
CP_FILE="$MODULE/target/job-classpath-test.txt"

find_jar() {
  ls "$MODULE"/target/riverbed-flink-writer-*.jar 2>/dev/null | grep -v -e '-tests\.jar$' -e '-sources\.jar$' -e '-job\.jar$' | head -n 1 || true
}

JAR="$(find_jar)"
if [[ -z "$JAR" || ! -f "$CP_FILE" || -n "$(find "$MODULE/src/main" "$ROOT/shared-format/src/main" "$MODULE/pom.xml" "$ROOT/pom.xml" -newer "$JAR" -print -quit 2>/dev/null)" ]]; then
  if [[ -n "${RIVERBED_NO_BUILD:-}" ]]; then
    echo "$NAME: flink-writer's jar or target/job-classpath-test.txt is missing or older than the sources, and RIVERBED_NO_BUILD is set" >&2
    exit 1
  fi
  echo "$NAME: building flink-writer (mvn package -DskipTests)..." >&2
  mkdir -p "$MODULE/target"
  if ! (cd "$ROOT" && mvn -B -ntp -Dstyle.color=never -pl flink-writer -am package -DskipTests) > "$MODULE/target/launcher-build.log" 2>&1; then
    tail -n 40 "$MODULE/target/launcher-build.log" >&2
    echo "$NAME: build failed; full log in $MODULE/target/launcher-build.log" >&2
    exit 1
  fi
  JAR="$(find_jar)"
  # The jar plugin leaves an up-to-date jar untouched; mark it as built now, or a change in
  # shared-format alone would trigger this build on every launch.
  [[ -n "$JAR" ]] && touch "$JAR"
fi
[[ -n "$JAR" && -f "$CP_FILE" ]] || { echo "$NAME: build did not produce $MODULE/target/riverbed-flink-writer-*.jar" >&2; exit 1; }

# Runtime classpath: everything the module compiles and tests against (Flink is 'provided' for
# `flink run`, so it is taken from here), minus test frameworks.
CP="$JAR:$(tr ':' '\n' < "$CP_FILE" | grep -v -E '/(junit|org/junit|assertj|opentest4j|apiguardian)[/-]|-tests\.jar$|\.pom$|/test-classes$' | paste -sd: -)"

LOG_CONFIG="${RIVERBED_LOG_CONFIG:-$ROOT/deploy/bin/lib/log4j2.properties}"

JAVA="${JAVA:-java}"
FLAGS=(
  "-Xmx${RIVERBED_HEAP:-2g}"
  --add-exports=java.base/sun.net.util=ALL-UNNAMED
  --add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED
  --add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED
)
for p in java.lang java.net java.io java.nio sun.nio.ch java.lang.reflect java.text java.time java.util \
         java.util.concurrent java.util.concurrent.atomic java.util.concurrent.locks; do
  FLAGS+=("--add-opens=java.base/$p=ALL-UNNAMED")
done
# shellcheck disable=SC2206
EXTRA=(${RIVERBED_JAVA_OPTS:-})
run_flink_main() {
  exec "$JAVA" "${FLAGS[@]}" "${EXTRA[@]}" "-Dlog4j.configurationFile=$LOG_CONFIG" -cp "$CP" "$MAIN" "$@"
}
