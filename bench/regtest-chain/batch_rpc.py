"""JSON-RPC to litecoind over one kept-alive HTTP connection, single calls and batches (chaingen.py). Stdlib only."""
import base64
import http.client
import json
import time
from decimal import Decimal


class RPC:
    def __init__(self, port, user, password, wallet=None):
        self.port = port
        self.auth = 'Basic ' + base64.b64encode(f'{user}:{password}'.encode()).decode()
        self.path = '/' if wallet is None else f'/wallet/{wallet}'
        self.conn = None
        self.calls = 0
        self.http_requests = 0

    def _post(self, body):
        for attempt in range(3):
            try:
                if self.conn is None:
                    self.conn = http.client.HTTPConnection('127.0.0.1', self.port, timeout=600)
                self.conn.request('POST', self.path, body,
                                  {'Authorization': self.auth, 'Content-Type': 'application/json'})
                resp = self.conn.getresponse()
                data = resp.read()
                self.http_requests += 1
                return json.loads(data, parse_float=Decimal)
            except (http.client.HTTPException, ConnectionError, OSError):
                self.conn = None
                if attempt == 2:
                    raise
                time.sleep(0.5)

    def call(self, method, *params):
        r = self._post(json.dumps({'jsonrpc': '1.0', 'id': 0, 'method': method,
                                   'params': list(params)}))
        self.calls += 1
        if r.get('error'):
            raise RuntimeError(f'{method}: {r["error"]}')
        return r['result']

    def batch(self, calls):
        """calls: [(method, [params])] -> [(result, error)] in order."""
        if not calls:
            return []
        body = json.dumps([{'jsonrpc': '1.0', 'id': i, 'method': m, 'params': p}
                           for i, (m, p) in enumerate(calls)])
        r = self._post(body)
        self.calls += len(calls)
        if isinstance(r, dict):        # whole batch rejected
            raise RuntimeError(f'batch error: {r}')
        out = [None] * len(calls)
        for item in r:
            out[item['id']] = (item.get('result'), item.get('error'))
        return out

