# Sourced by the project's scripts: picks the Java 25 JDK.
if [ -z "${JBEAM_JAVA_HOME:-}" ]; then
  for d in /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-25-jdk* /usr/lib/jvm/java-25*; do
    [ -x "$d/bin/java" ] && { JBEAM_JAVA_HOME=$d; break; }
  done
fi
export JAVA_HOME=${JBEAM_JAVA_HOME:-${JAVA_HOME:-}}
export PATH="$JAVA_HOME/bin:$PATH"
export MAVEN_OPTS="${MAVEN_OPTS:-} --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow"
