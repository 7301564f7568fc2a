#!/usr/bin/env bash
# Builds the JVM's AOT cache for bin/jbeam (JDK 25, JEP 483/514/515): the classes jbeam loads at
# boot, already parsed and linked, plus method profiles from a training run. Cuts bin/jbeam's
# startup roughly in half. CDS needs jar files on the class path, so the classes are jarred first.
# bin/jbeam uses the cache only while the jar is newer than every compiled class (see bin/jbeam).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/scripts/env.sh"
cd "$here"
rm -f target/jbeam.aot target/jbeam-runtime.jar
# The training run's profiles steer the JIT in every later run, so it runs a mix of real work
# (scripts/aot_training.erl), not just the boot: see ADR 0009.
mkdir -p target/aot-training
erlc -o target/aot-training scripts/aot_training.erl
# bin/jbeam may be running meanwhile (tests, benchmarks): the jar and the cache appear under their
# names only once complete (a cache file can be renamed; it records the jar's path, not its own).
"$JAVA_HOME/bin/jar" cf target/jbeam-runtime.jar.tmp -C target/classes .
mv -f target/jbeam-runtime.jar.tmp target/jbeam-runtime.jar
. scripts/jvm-options.sh
"$JAVA_HOME/bin/java" "${JBEAM_JVM_OPTS[@]}" -XX:AOTCacheOutput=target/jbeam.aot.tmp -Xlog:aot=off -Xlog:cds=off \
  -cp "target/jbeam-runtime.jar:target/lib/*" org.jbeam.cli.Main \
  -noshell -pa target/aot-training -run aot_training main -s erlang halt > /dev/null
mv -f target/jbeam.aot.tmp target/jbeam.aot
