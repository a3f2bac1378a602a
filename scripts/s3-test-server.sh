#!/usr/bin/env bash
# A real S3-compatible server on loopback for the storage tests: Debian's Ceph object gateway
# (radosgw) on a one-node cluster with an in-memory OSD (see docs/operations.md#object-storage-s3).
#   scripts/s3-test-server.sh install      apt-get the Ceph packages when missing (about 270 MB, under a minute)
#   scripts/s3-test-server.sh start DIR [PORT]   start in DIR (scratch), print the endpoint; about 30 s
#   scripts/s3-test-server.sh stop DIR     stop the daemons started in DIR (by the pids they wrote)
# Credentials: access key S3_TEST_KEY / secret S3_TEST_SECRET (defaults below).
set -euo pipefail
KEY="${S3_TEST_KEY:-appdesk-test-key}"
SECRET="${S3_TEST_SECRET:-appdesk-test-secret-0123456789}"

case "${1:-}" in
install)
  if ! command -v radosgw >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ceph-mon ceph-osd radosgw ceph-common >/dev/null
  fi
  ;;
start)
  B="$(realpath -m "${2:?scratch folder}")"
  PORT="${3:-7480}"
  MON_PORT="${S3_TEST_MON_PORT:-6789}"
  MON2_PORT="${S3_TEST_MON2_PORT:-3300}"
  mkdir -p "$B/mon" "$B/osd" "$B/run"
  FSID="$(cat /proc/sys/kernel/random/uuid)"
  OSD_UUID="$(cat /proc/sys/kernel/random/uuid)"
  MONADDR="[v2:127.0.0.1:${MON2_PORT},v1:127.0.0.1:${MON_PORT}]"
  cat >"$B/ceph.conf" <<CONF
[global]
fsid = $FSID
mon host = $MONADDR
public addr = 127.0.0.1
ms bind ipv6 = false
auth cluster required = none
auth service required = none
auth client required = none
auth supported = none
ms mon client mode = crc
ms client mode = crc
ms mon service mode = crc
ms service mode = crc
ms cluster mode = crc
ms mon cluster mode = crc
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd crush chooseleaf type = 0
mon allow pool size one = true
mon max pg per osd = 1000
osd objectstore = memstore
memstore device bytes = 1073741824
run dir = $B/run
admin socket = $B/run/\$cluster-\$name.asok
log file = $B/\$name.log
pid file = $B/run/\$name.pid
keyring = $B/keyring
[mon.a]
mon data = $B/mon
[osd.0]
osd data = $B/osd
[client.rgw.a]
rgw frontends = beast endpoint=127.0.0.1:$PORT
CONF
  C=(-c "$B/ceph.conf")
  ceph-authtool --create-keyring "$B/keyring" --gen-key -n mon. --cap mon 'allow *' >/dev/null
  monmaptool --create --addv a "$MONADDR" --fsid "$FSID" "$B/monmap" >/dev/null
  ceph-mon "${C[@]}" --mkfs -i a --monmap "$B/monmap" --keyring "$B/keyring"
  ceph-mon "${C[@]}" -i a
  ceph "${C[@]}" osd new "$OSD_UUID" >/dev/null
  ceph-osd "${C[@]}" -i 0 --mkfs --osd-uuid "$OSD_UUID" >/dev/null 2>&1
  ceph-osd "${C[@]}" -i 0 2>/dev/null
  radosgw "${C[@]}" -n client.rgw.a
  for _ in $(seq 1 120); do
    curl -sf "http://127.0.0.1:$PORT/" >/dev/null && break
    sleep 0.5
  done
  curl -sf "http://127.0.0.1:$PORT/" >/dev/null || { echo "radosgw did not answer on $PORT" >&2; exit 1; }
  radosgw-admin "${C[@]}" user create --uid=tester --display-name=tester --access-key="$KEY" --secret="$SECRET" >/dev/null
  echo "http://127.0.0.1:$PORT"
  ;;
stop)
  B="$(realpath -m "${2:?scratch folder}")"
  for name in client.rgw.a osd.0 mon.a; do
    f="$B/run/$name.pid"
    [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true
  done
  sleep 1
  for name in client.rgw.a osd.0 mon.a; do
    f="$B/run/$name.pid"
    [ -f "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null || true
  done
  ;;
*)
  sed -n 2,8p "$0"
  exit 2
  ;;
esac
