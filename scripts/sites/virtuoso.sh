#!/usr/bin/env bash
# A real triple store for the interoperability tests (issue 16): Debian 12's OpenLink
# Virtuoso 7.2 (virtuoso-opensource-7-bin, unmodified) with a database of its own,
# listening on 127.0.0.1 only, loaded with trawl's demo KB (ontology/demokb, the YAGO
# 4.5 sample) in the graph urn:trawl:demo-kb. Also installs the RDF 1.1 tools that the
# tests check every output with: rapper (raptor2-utils) and rdflib (python3-rdflib).
#
#   scripts/sites/virtuoso.sh [start]   install what is missing, create the database, start
#   scripts/sites/virtuoso.sh stop      stop Virtuoso
#   scripts/sites/virtuoso.sh status    exit 0 when the SPARQL endpoint answers
#
# The SPARQL endpoint is http://127.0.0.1:$TRAWL_VIRTUOSO_PORT/sparql (18150), the SQL
# port $TRAWL_VIRTUOSO_SQL_PORT (18151; isql-vt 127.0.0.1:18151 dba dba). The anonymous
# SPARQL user may update (a test store on 127.0.0.1: the tests load trawl's outputs
# through the Graph Store protocol at /sparql-graph-crud); DirsAllowed is / so that
# tests can also load files with the bulk loader. Idempotent: a running Virtuoso and a
# loaded demo KB are kept. Needs root or sudo for the packages.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/sites/lib.sh
PORT="${TRAWL_VIRTUOSO_PORT:-18150}"
SQL_PORT="${TRAWL_VIRTUOSO_SQL_PORT:-18151}"
URL="http://127.0.0.1:${PORT}"
STATE="${TRAWL_VIRTUOSO_STATE:-/var/lib/trawl-sites/virtuoso}"
DEMO_GRAPH="urn:trawl:demo-kb"

answers() {
  curl -fsS -o /dev/null --max-time 5 --data-urlencode 'query=ASK {}' "$URL/sparql" 2>/dev/null
}

isql() { isql-vt "127.0.0.1:$SQL_PORT" dba dba "$@"; }

case "${1:-start}" in
status)
  answers && echo "virtuoso: $URL/sparql" && exit 0
  echo "virtuoso: not answering on $URL/sparql" >&2
  exit 1
  ;;
stop)
  if answers; then isql -K >/dev/null 2>&1 || true; fi
  stop_bg "$STATE/virtuoso.pid"
  exit 0
  ;;
start) ;;
*)
  echo "usage: $0 [start|stop|status]" >&2
  exit 2
  ;;
esac

need_packages virtuoso-opensource-7-bin raptor2-utils python3-rdflib curl
$SUDO mkdir -p "$STATE/db"

# A configuration of our own (Debian's /etc/virtuoso-opensource-7 instance is left
# alone): small buffers (the demo KB has a few thousand triples), 127.0.0.1 only.
$SUDO tee "$STATE/virtuoso.ini" >/dev/null <<INI
[Database]
DatabaseFile       = $STATE/db/virtuoso.db
ErrorLogFile       = $STATE/db/virtuoso.log
LockFile           = $STATE/db/virtuoso.lck
TransactionFile    = $STATE/db/virtuoso.trx
xa_persistent_file = $STATE/db/virtuoso.pxa
ErrorLogLevel      = 7
FileExtend         = 200
Striping           = 0
TempStorage        = TempDatabase
[TempDatabase]
DatabaseFile       = $STATE/db/virtuoso-temp.db
TransactionFile    = $STATE/db/virtuoso-temp.trx
Striping           = 0
[Parameters]
ServerPort               = 127.0.0.1:$SQL_PORT
DisableUnixSocket        = 1
MaxClientConnections     = 10
CheckpointInterval       = 60
CaseMode                 = 2
DirsAllowed              = /
NumberOfBuffers          = 10000
MaxDirtyBuffers          = 6000
ThreadsPerQuery          = 2
MaxQueryMem              = 256M
[HTTPServer]
ServerPort               = 127.0.0.1:$PORT
ServerRoot               = $STATE/db
MaxClientConnections     = 10
ServerThreads            = 10
Charset                  = UTF-8
[SPARQL]
ResultSetMaxRows         = 100000
MaxQueryExecutionTime    = 60
MaxQueryCostEstimationTime = 400
INI

if ! answers; then
  start_bg "$STATE/virtuoso.pid" "$STATE/virtuoso.out" \
    $SUDO virtuoso-t -f -c "$STATE/virtuoso.ini"
  # A new database takes a few seconds to create.
  for _ in $(seq 1 120); do answers && break; sleep 0.5; done
  answers || { echo "virtuoso.sh: Virtuoso does not answer on $URL/sparql (see $STATE/db/virtuoso.log)" >&2; exit 1; }
fi

if [ ! -f "$STATE/ready" ]; then
  isql exec="GRANT SPARQL_UPDATE TO \"SPARQL\"; GRANT EXECUTE ON DB.DBA.SPARQL_INSERT_DICT_CONTENT TO \"SPARQL\"; GRANT EXECUTE ON DB.DBA.SPARQL_DELETE_DICT_CONTENT TO \"SPARQL\"; GRANT EXECUTE ON DB.DBA.L_O_LOOK TO \"SPARQL\"; GRANT EXECUTE ON DB.DBA.SPARUL_RUN TO \"SPARQL\"; GRANT EXECUTE ON DB.DBA.SPARQL_CONSTRUCT_ACC TO \"SPARQL\"; GRANT EXECUTE ON DB.DBA.SPARQL_CONSTRUCT_FIN TO \"SPARQL\"; GRANT EXECUTE ON DB.DBA.RDF_OBJ_ADD_KEYWORD_FOR_GRAPH TO \"SPARQL\"; DB.DBA.RDF_DEFAULT_USER_PERMS_SET ('nobody', 7);" >/dev/null
  $SUDO sh -c "zcat ontology/demokb/yago-demo.ttl.gz > '$STATE/demo-kb.ttl'"
  isql exec="SPARQL CLEAR GRAPH <$DEMO_GRAPH>; DB.DBA.TTLP_MT(file_to_string_output('$STATE/demo-kb.ttl'), '', '$DEMO_GRAPH', 0); checkpoint;" >/dev/null
  $SUDO touch "$STATE/ready"
fi
n=$(curl -fsS --max-time 10 -H 'Accept: text/csv' --data-urlencode "query=SELECT (COUNT(*) AS ?n) WHERE { GRAPH <$DEMO_GRAPH> { ?s ?p ?o } }" "$URL/sparql" | tail -1)
echo "virtuoso: $URL/sparql (demo KB: $n triples in <$DEMO_GRAPH>)"
