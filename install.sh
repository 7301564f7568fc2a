#!/usr/bin/env bash
# jbeam: install what is missing (Erlang/OTP 25, liburing, cmake, pcre2 via apt-get when root),
# build everything, and run a demo program on jbeam.
set -euo pipefail
cd "$(dirname "$0")"
. ./scripts/env.sh

need=()
command -v erl >/dev/null 2>&1 || need+=(erlang-base erlang-dev erlang-src)
# Elixir: its .beam files are part of the loader check (and it brings the rest of OTP's apps).
command -v elixir >/dev/null 2>&1 || need+=(elixir)
# OTP's NIF libraries used as proof of the erl_nif layer (crypto.so, asn1rt_nif.so).
ls /usr/lib/erlang/lib/crypto-*/priv/lib/crypto.so >/dev/null 2>&1 || need+=(erlang-crypto)
ls /usr/lib/erlang/lib/asn1-*/priv/lib/asn1rt_nif.so >/dev/null 2>&1 || need+=(erlang-asn1)
# OTP's example applications: kernel's gen_tcp_dist (an alternative distribution carrier) is compiled by DistCarrierTest.
ls -d /usr/lib/erlang/lib/kernel-*/examples/gen_tcp_dist >/dev/null 2>&1 || need+=(erlang-examples)
# OTP applications the differential suite runs unmodified (ssh, ssl and inets over loopback, xmerl, eunit,
# xref, merl, common_test, os_mon).
for app in ssh:erlang-ssh ssl:erlang-ssl inets:erlang-inets common_test:erlang-common-test os_mon:erlang-os-mon xmerl:erlang-xmerl \
    eunit:erlang-eunit tools:erlang-tools syntax_tools:erlang-syntax-tools; do
  ls -d /usr/lib/erlang/lib/${app%%:*}-*/ebin >/dev/null 2>&1 || need+=(${app#*:})
done
# Third-party libraries Debian packages, NIFs included (lib_jiffy, lib_misc, lib_more, lib_mochiweb): code no one
# here wrote, built for erl, loaded unmodified.
for app in jiffy:erlang-jiffy bitcask:erlang-bitcask p1_xml:erlang-p1-xml p1_yaml:erlang-p1-yaml \
    p1_stringprep:erlang-p1-stringprep p1_tls:erlang-p1-tls p1_zlib:erlang-p1-zlib p1_iconv:erlang-p1-iconv \
    p1_mqtree:erlang-p1-mqtree p1_cache_tab:erlang-p1-cache-tab meck:erlang-meck proper:erlang-proper \
    luerl:erlang-luerl poolboy:erlang-poolboy mochiweb:erlang-mochiweb; do
  ls -d /usr/lib/erlang/lib/${app%%:*}*/ebin >/dev/null 2>&1 || need+=(${app#*:})
done
command -v cmake >/dev/null 2>&1 || need+=(cmake)
[ -e /usr/include/liburing.h ] || need+=(liburing-dev)
[ -e /usr/include/pcre2.h ] || need+=(libpcre2-dev)
command -v mvn >/dev/null 2>&1 || need+=(maven)
command -v gcc >/dev/null 2>&1 || need+=(gcc)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "installing: ${need[*]}"
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}"
  else
    echo "missing packages (run as root to install): ${need[*]}" >&2
    exit 1
  fi
fi
[ -x "$JAVA_HOME/bin/java" ] || { echo "Java 25 not found at $JAVA_HOME (set JBEAM_JAVA_HOME)" >&2; exit 1; }

mvn -q -B package -DskipTests
scripts/aot-cache.sh
echo "--- demo: bin/jbeam -noshell -eval 'io:format(\"~p~n\", [lists:sum(lists:seq(1,100))]), halt().'"
bin/jbeam -noshell -eval 'io:format("~p~n", [lists:sum(lists:seq(1,100))]), halt().'
