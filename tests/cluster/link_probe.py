#!/usr/bin/python3
"""Started by mpirun in place of g500 (scripts/cluster --binary): measures the links of the
namespace cluster with plain TCP. Rank 0 (host 1) serves; every other rank measures the median
round trip of 20 one-byte messages to host 1 and the rate of sending MB megabytes to it, and
prints `rank R on HOSTNAME: rtt X ms, Y Mbit/s`; rank 0 answers each connection in a thread of
its own. usage: link_probe.py MB"""
import os
import socket
import sys
import threading
import time

PORT = 5999
HOST1 = "10.250.0.1"


def answer(c):
    c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    if c.recv(1) == b"p":
        while data := c.recv(1):
            c.sendall(data)
    else:
        while c.recv(1 << 20):
            pass
        c.sendall(b"k")
    c.close()


def serve(clients):
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("0.0.0.0", PORT))
    server.listen()
    threads = []
    for _ in range(2 * clients):  # a round-trip connection and a bulk connection per client
        threads.append(threading.Thread(target=answer, args=(server.accept()[0],)))
        threads[-1].start()
    for t in threads:
        t.join()


def connect(kind):
    for _ in range(100):  # until rank 0 listens
        try:
            c = socket.create_connection((HOST1, PORT))
            break
        except OSError:
            time.sleep(0.1)
    else:
        sys.exit(f"link_probe: cannot connect to {HOST1}:{PORT}")
    c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    c.sendall(kind)
    return c


def measure(rank, megabytes):
    c = connect(b"p")
    trips = []
    for _ in range(20):
        start = time.monotonic()
        c.sendall(b"x")
        c.recv(1)
        trips.append(time.monotonic() - start)
    c.close()
    c = connect(b"b")
    start = time.monotonic()
    c.sendall(bytes(megabytes << 20))
    c.shutdown(socket.SHUT_WR)
    c.recv(1)
    mbit = (megabytes << 20) * 8 / 1e6 / (time.monotonic() - start)
    print(f"rank {rank} on {socket.gethostname()}: rtt {sorted(trips)[10] * 1e3:.2f} ms, {mbit:.0f} Mbit/s", flush=True)


def main():
    rank, size = int(os.environ["OMPI_COMM_WORLD_RANK"]), int(os.environ["OMPI_COMM_WORLD_SIZE"])
    if rank == 0:
        serve(size - 1)
    else:
        measure(rank, int(sys.argv[1]))


if __name__ == "__main__":
    main()
