#!/usr/bin/env python3
"""A gang task that meets the others over TCP, as torchrun's workers do.

Rank 0 listens on MASTER_ADDR:MASTER_PORT; every other rank connects,
sends its rank and reads rank 0's answer. Each task prints one line, or
appends it to the file its first argument names:

    RANK WORLD_SIZE LOCAL_RANK LOCAL_WORLD_SIZE MASTER_ADDR MASTER_PORT
    SPINDLE_GANG_HOSTS START_TIME PEERS

where PEERS are the ranks it met (rank 0: every other; the others: 0).
With a second argument, rank 1's first attempt writes its pid there and
sleeps instead (a test kills it: the gang must restart whole).
"""
import os
import socket
import sys
import time

start = time.time()
rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
addr, port = os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"])
deadline = start + 30

if len(sys.argv) > 2 and rank == 1 and os.environ.get("SPINDLE_ATTEMPT") == "0":
    with open(sys.argv[2], "w") as f:
        f.write(str(os.getpid()))
    time.sleep(120)

peers = []
if rank == 0:
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("", port))
    srv.listen(world)
    srv.settimeout(30)
    conns = []
    for _ in range(world - 1):
        conn, _ = srv.accept()
        conns.append(conn)
        peers.append(int(conn.recv(16).decode()))
    # A barrier, as DDP's: nobody goes on before everyone has met.
    for conn in conns:
        conn.sendall(b"0")
        conn.close()
    srv.close()
else:
    while True:
        try:
            conn = socket.create_connection((addr, port), timeout=5)
        except OSError:
            if time.time() > deadline:
                raise
            time.sleep(0.1)
            continue
        with conn:
            conn.settimeout(deadline - time.time())
            conn.sendall(str(rank).encode())
            peers.append(int(conn.recv(16).decode()))
        break

fields = [os.environ[k] for k in ("RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT", "SPINDLE_GANG_HOSTS")]
line = " ".join(fields + ["%.6f" % start, ",".join(str(p) for p in sorted(peers))]) + "\n"
if len(sys.argv) > 1:
    with open(sys.argv[1], "a") as f:
        f.write(line)
else:
    sys.stdout.write(line)
