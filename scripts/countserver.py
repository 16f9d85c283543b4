#!/usr/bin/python3
"""A local HTTP listener for the end-to-end scripts that counts what reaches
it: every request (any method, any path) is answered 204 and logged as one
line "REQUEST <method> <path>" on stdout. It prints
"COUNTSERVER_URL=http://127.0.0.1:<port>" once it listens (port 0: any free
one) and runs until killed.

  countserver.py [PORT]
"""
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Counter(BaseHTTPRequestHandler):
    def _count(self):
        print("REQUEST", self.command, self.path, flush=True)
        self.send_response(204)
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_GET = do_POST = do_HEAD = do_PUT = do_OPTIONS = do_DELETE = _count

    def log_message(self, *args):
        pass  # the REQUEST lines are the log


def main():
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    server = ThreadingHTTPServer(("127.0.0.1", port), Counter)
    print("COUNTSERVER_URL=http://127.0.0.1:%d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
