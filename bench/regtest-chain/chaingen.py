#!/usr/bin/env python3
"""Fill a running litecoind -regtest node with ~NTX transactions.

Keys are generated here (sequential secp256k1 keys, P(i+1) = P(i) + G, so one point
addition per key). Transactions are built here as raw hex from a UTXO pool tracked here,
signed by the node with signrawtransactionwithkey and sent with sendrawtransaction, both
as JSON-RPC batches (one HTTP request per few hundred txs). A small share of txs is made
by the node's own wallet (sendtoaddress / sendmany) to our addresses.

Shape of the chain (all random choices come from a fixed seed, so a run is repeatable
given the same NTX):
  * script types of receiving addresses: ~35% legacy P2PKH, ~25% P2SH-P2WPKH, ~40% P2WPKH
  * outputs: about half go to fresh addresses, the rest re-use addresses; 200 "hot"
    addresses get a large share of the re-use (long histories)
  * inputs: 1 (62%), 2 (23%), 3-6 (10%), 7-25 (5%)
  * outputs: 2 (55%), 1 (15%), 3-4 (20%), 5-30 "sendmany" batches (10%); 1% carry an
    OP_RETURN; ~0.2% of outputs pay the node wallet
  * ~1% of txs are made by the wallet (sendtoaddress 60%, sendmany 40%)
  * 2-3 batches per block, so some txs spend outputs of txs in the same block
  * coinbase outputs are spent once mature
Keys and raw transactions: ltc_keys.py; JSON-RPC batches: batch_rpc.py. Stdlib only.
"""
import argparse
import concurrent.futures
import json
import random
import sys
import time

from batch_rpc import RPC
from ltc_keys import IN_VSIZE, T_BECH32, T_LEGACY, T_P2SH_SEGWIT, TYPE_NAMES, Keys, ltc, raw_tx, sat


# ---------------------------------------------------------------- generator
class Gen:
    MIN_OUT = 100_000            # 0.001 LTC, far above dust
    HOT = 200

    def __init__(self, args):
        self.a = args
        self.rng = random.Random(args.seed)
        self.keys = Keys(str(args.seed))
        self.rpc = RPC(args.rpcport, args.rpcuser, args.rpcpassword)
        self.wrpc = RPC(args.rpcport, args.rpcuser, args.rpcpassword, wallet='bench')
        self.sign_rpcs = [RPC(args.rpcport, args.rpcuser, args.rpcpassword)
                          for _ in range(args.sign_threads)]
        self.pool_exec = concurrent.futures.ThreadPoolExecutor(max(1, args.sign_threads))
        self.pool = []            # [txid, vout, value_sat, key_index]
        self.used = []            # key indices that have received something (for re-use)
        self.used_set = set()
        self.hot = []
        self.immature = []        # (height, blockhash) of our coinbases
        self.wallet_addrs = []
        self.miner_keys = []
        self.n_raw = 0
        self.n_wallet = 0
        self.n_fail = 0
        self.fail_samples = []
        self.t_build = self.t_sign = self.t_send = self.t_wallet = self.t_mine = 0.0

    # -- address choice
    def fresh_key(self):
        r = self.rng.random()
        typ = T_LEGACY if r < 0.35 else (T_P2SH_SEGWIT if r < 0.60 else T_BECH32)
        k = self.keys.new(typ)
        return k

    def mark_used(self, k):
        if k not in self.used_set:
            self.used_set.add(k)
            self.used.append(k)
            if len(self.hot) < self.HOT:
                self.hot.append(k)

    def pay_key(self):
        rng = self.rng
        if not self.used or rng.random() < 0.5:
            k = self.fresh_key()
        elif rng.random() < 0.4:
            k = rng.choice(self.hot)
        else:
            k = rng.choice(self.used)
        return k

    # -- UTXO pool
    def take(self):
        i = self.rng.randrange(len(self.pool))
        u = self.pool[i]
        last = self.pool.pop()
        if i < len(self.pool):
            self.pool[i] = last
        return u

    def build_tx(self, height, batch_size):
        rng = self.rng
        small = len(self.pool) < 3 * batch_size
        if small:
            n_in, n_out = 1, rng.randint(10, 40)
        else:
            r = rng.random()
            n_in = 1 if r < 0.62 else 2 if r < 0.85 else rng.randint(3, 6) if r < 0.95 else rng.randint(7, 25)
            r = rng.random()
            n_out = 2 if r < 0.55 else 1 if r < 0.70 else rng.randint(3, 4) if r < 0.90 else rng.randint(5, 30)
        n_in = min(n_in, len(self.pool))
        ins = [self.take() for _ in range(n_in)]
        feerate = rng.choice((1.5, 2, 2, 5, 10, 20))
        op_return = rng.random() < 0.01

        def fee_for(ins, n_out):
            vs = 11 + sum(IN_VSIZE[self.keys.typ[u[3]]] for u in ins) + 34 * n_out
            if op_return:
                vs += 52
            return int(vs * feerate) + 10

        total = sum(u[2] for u in ins)
        # top up inputs until the outputs can all be >= MIN_OUT
        while total < fee_for(ins, n_out) + n_out * self.MIN_OUT * 2 and self.pool and len(ins) < 60:
            u = self.take()
            ins.append(u)
            total += u[2]
        fee = fee_for(ins, n_out)
        while n_out > 1 and total - fee < n_out * self.MIN_OUT * 2:
            n_out -= 1
            fee = fee_for(ins, n_out)
        avail = total - fee
        if avail < self.MIN_OUT // 2:
            return None, ins          # give inputs back
        # output keys: first one is "change"
        first_in_key = ins[0][3]
        outs_k = []
        if n_out >= 2:
            r = rng.random()
            if r < 0.60:
                ck = self.keys.new(self.keys.typ[first_in_key])      # fresh change, same type
            elif r < 0.85:
                ck = first_in_key                                   # change back to sender
            else:
                ck = rng.choice(self.used)
            outs_k.append(ck)
        while len(outs_k) < n_out:
            outs_k.append(-1 if rng.random() < 0.002 and self.wallet_addrs else self.pay_key())
        # values
        if n_out == 1:
            vals = [avail]
        else:
            w = [rng.expovariate(1.0) for _ in range(n_out)]
            spare = avail - n_out * self.MIN_OUT
            sw = sum(w)
            vals = [self.MIN_OUT + int(spare * x / sw) for x in w]
            for j in range(1, n_out):             # round some payments
                if rng.random() < 0.4 and vals[j] > 2_000_000:
                    vals[j] -= vals[j] % 1_000_000
            vals[0] += avail - sum(vals)         # change takes the remainder
        outs = []
        owned = []                                 # (vout, value, key)
        for k, v in zip(outs_k, vals):
            if k == -1:
                addr_spk = self.wallet_addrs[rng.randrange(len(self.wallet_addrs))]
                outs.append((v, addr_spk))
            else:
                outs.append((v, self.keys.spk[k]))
        order = list(range(len(outs)))
        rng.shuffle(order)
        outs = [outs[j] for j in order]
        ks = [outs_k[j] for j in order]
        for vout, (k, (v, _)) in enumerate(zip(ks, outs)):
            if k != -1:
                owned.append((vout, v, k))
        if op_return:
            outs.append((0, b'\x6a' + bytes([32]) + rng.randbytes(32)))
        r = rng.random()
        seq = 0xfffffffd if r < 0.4 else 0xfffffffe if r < 0.8 else 0xffffffff
        locktime = height if rng.random() < 0.8 else 0
        version = 2 if rng.random() < 0.9 else 1
        hexs = raw_tx(version, [(u[0], u[1], seq) for u in ins], outs, locktime)
        wifs = sorted({self.keys.wif(u[3]) for u in ins})
        return (hexs, wifs, owned), ins

    def mine(self, n=1):
        k = self.miner_keys[self.rng.randrange(len(self.miner_keys))]
        hashes = self.rpc.call('generatetoaddress', n, self.keys.addr[k])
        h0 = self.rpc.call('getblockcount') - n + 1
        for j, bh in enumerate(hashes):
            self.immature.append((h0 + j, bh, k))
        return h0 + n - 1

    def mature(self, height):
        ready = [c for c in self.immature if c[0] <= height - 100]
        if not ready:
            return
        self.immature = [c for c in self.immature if c[0] > height - 100]
        blocks = self.rpc.batch([('getblock', [bh, 1]) for _, bh, _ in ready])
        cbs = [(b[0]['tx'][0], k) for b, (_, _, k) in zip(blocks, ready)]
        outs = self.rpc.batch([('gettxout', [txid, 0]) for txid, _ in cbs])
        for (txid, k), (o, err) in zip(cbs, outs):
            if o:
                self.pool.append([txid, 0, sat(o['value']), k])
                self.mark_used(k)

    def wallet_txs(self, count):
        calls = []
        for _ in range(count):
            if self.rng.random() < 0.6:
                k = self.pay_key()
                amt = self.rng.randint(self.MIN_OUT, 50_000_000)
                calls.append(('sendtoaddress', [self.keys.addr[k], ltc(amt)]))
            else:
                dests = {}
                for _ in range(self.rng.randint(2, 12)):
                    dests[self.keys.addr[self.pay_key()]] = ltc(self.rng.randint(self.MIN_OUT, 10_000_000))
                calls.append(('sendmany', ['', dests]))
        return calls

    def run(self):
        a, rng, rpc = self.a, self.rng, self.rpc
        t0 = time.time()
        # wallet (the node's own): receives the first 30 coinbases and ~2% of outputs,
        # and makes ~2% of the txs with sendtoaddress / sendmany.
        wallets = rpc.call('listwallets')
        if 'bench' not in wallets:
            try:
                rpc.call('loadwallet', 'bench')
            except RuntimeError:
                rpc.call('createwallet', 'bench', False, False, '', False, False, True)
        waddrs = self.wrpc.batch([('getnewaddress', ['', t]) for t in TYPE_NAMES for _ in range(10)])
        info = rpc.batch([('validateaddress', [w]) for w, _ in waddrs])
        self.wallet_addrs = [bytes.fromhex(i['scriptPubKey']) for i, _ in info]
        height = rpc.call('getblockcount')
        if height != 0:
            sys.exit(f'node already has {height} blocks; give make-chain.sh an empty DATADIR')
        # miner keys: one of each type; also checks our address encoding against the node
        self.miner_keys = [self.keys.new(t) for t in (T_LEGACY, T_P2SH_SEGWIT, T_BECH32)]
        chk = rpc.batch([('validateaddress', [self.keys.addr[k]]) for k in self.miner_keys])
        for k, (v, _) in zip(self.miner_keys, chk):
            if not v['isvalid'] or v['scriptPubKey'] != self.keys.spk[k].hex():
                sys.exit(f'address encoding mismatch for {self.keys.addr[k]}: {v}')
        rpc.call('generatetoaddress', 30, waddrs[0][0])
        height = self.mine(a.initial_blocks - 30)
        self.mature(height)
        log(f'initial {height} blocks mined, {len(self.pool)} mature coinbases in pool '
            f'({time.time() - t0:.1f}s)')

        made = 0
        last_report = time.time()
        t_loop = time.time()
        mweb_done = not a.mweb
        while made < a.ntx:
            if not mweb_done and height >= 431:
                # MWEB activates at 432: the activation block needs a peg-in so that the
                # first HogEx has an input.
                maddr = self.wrpc.call('getnewaddress', '', 'mweb')
                self.wrpc.call('sendtoaddress', maddr, '1.0')
                mweb_done = True
            in_block = min(rng.randint(a.min_per_block, a.max_per_block), a.ntx - made)
            nb = rng.choice((2, 2, 3))
            sizes = [in_block // nb + (1 if j < in_block % nb else 0) for j in range(nb)]
            for bsz in sizes:
                if bsz <= 0:
                    continue
                n_w = sum(1 for _ in range(bsz) if rng.random() < a.wallet_share)
                txs = []
                tb = time.time()
                for _ in range(bsz - n_w):
                    if not self.pool:
                        break
                    t, ins = self.build_tx(height, bsz)
                    if t is None:
                        self.pool.extend(ins)
                        continue
                    txs.append((t, ins))
                ts = time.time()
                self.t_build += ts - tb
                calls = [('signrawtransactionwithkey', [t[0], t[1]]) for t, _ in txs]
                if self.a.sign_threads > 1 and len(calls) > 20:
                    # signing holds cs_main only to look up coins: split the batch over
                    # several HTTP connections so the node signs on several cores
                    n = self.a.sign_threads
                    parts = [calls[j * len(calls) // n:(j + 1) * len(calls) // n] for j in range(n)]
                    signed = [r for part in self.pool_exec.map(lambda ab: ab[0].batch(ab[1]),
                                                               zip(self.sign_rpcs, parts))
                              for r in part]
                else:
                    signed = rpc.batch(calls)
                self.t_sign += time.time() - ts
                sends, keep = [], []
                for (t, ins), (res, err) in zip(txs, signed):
                    if err or not res['complete']:
                        self.fail(f'sign: {err or res.get("errors")}')
                        self.pool.extend(ins)
                        continue
                    sends.append(('sendrawtransaction', [res['hex']]))
                    keep.append((t, ins))
                ts = time.time()
                sent = rpc.batch(sends)
                self.t_send += time.time() - ts
                for (t, ins), (txid, err) in zip(keep, sent):
                    if err:
                        self.fail(f'send: {err}')
                        self.pool.extend(ins)
                        continue
                    for vout, v, k in t[2]:
                        self.pool.append([txid, vout, v, k])
                        self.mark_used(k)
                    self.n_raw += 1
                    made += 1
                if n_w:
                    ts = time.time()
                    wsent = self.wrpc.batch(self.wallet_txs(n_w))
                    txids = [r for r, e in wsent if r and not e]
                    for r, e in wsent:
                        if e:
                            self.fail(f'wallet: {e}')
                    raws = rpc.batch([('getrawtransaction', [x, True]) for x in txids])
                    for txid, (tx, e) in zip(txids, raws):
                        if e:
                            continue
                        for o in tx['vout']:
                            k = self.keys.by_spk.get(o['scriptPubKey']['hex'])
                            if k is not None:
                                self.pool.append([txid, o['n'], sat(o['value']), k])
                                self.mark_used(k)
                        self.n_wallet += 1
                        made += 1
                    self.t_wallet += time.time() - ts
            ts = time.time()
            height = self.mine(1)
            self.mature(height)
            self.t_mine += time.time() - ts
            if time.time() - last_report > 10 or made >= a.ntx:
                last_report = time.time()
                el = time.time() - t_loop
                log(f'height {height}: {made} txs ({made / el:.0f} tx/s), pool {len(self.pool)} utxos, '
                    f'{len(self.keys.priv)} keys, {self.n_fail} failures')
        mp = rpc.call('getmempoolinfo')
        if mp['size']:
            height = self.mine(1)
        elapsed = time.time() - t0
        stats = rpc.call('getchaintxstats')
        summary = {
            'height': height,
            'txs_made': made,
            'raw_txs': self.n_raw,
            'wallet_txs': self.n_wallet,
            'failures': self.n_fail,
            'chain_txcount': stats['txcount'],
            'keys': len(self.keys.priv),
            'addresses_used': len(self.used),
            'utxos_tracked': len(self.pool),
            'seconds': round(elapsed, 1),
            'seed': a.seed,
            'mweb': bool(a.mweb),
            'hot_addresses': [self.keys.addr[k] for k in self.hot[:50]],
            'sample_addresses': [self.keys.addr[k] for k in rng.sample(self.used, min(500, len(self.used)))],
        }
        with open(a.summary, 'w') as f:
            json.dump(summary, f, indent=1)
        log(f'done: {made} txs ({self.n_raw} raw, {self.n_wallet} wallet) in {height} blocks, '
            f'chain txcount {stats["txcount"]}, {self.n_fail} failures, {elapsed:.1f}s total '
            f'({made / (time.time() - t_loop):.0f} tx/s in the tx phase), '
            f'{rpc.calls + self.wrpc.calls + sum(r.calls for r in self.sign_rpcs)} RPC calls in '
            f'{rpc.http_requests + self.wrpc.http_requests + sum(r.http_requests for r in self.sign_rpcs)} HTTP requests')
        log(f'time split: build {self.t_build:.1f}s, sign {self.t_sign:.1f}s, '
            f'send {self.t_send:.1f}s, wallet {self.t_wallet:.1f}s, mine {self.t_mine:.1f}s')
        if self.fail_samples:
            log('first failures: ' + ' | '.join(self.fail_samples))
        print(json.dumps({k: v for k, v in summary.items() if not isinstance(v, list)}))

    def fail(self, msg):
        self.n_fail += 1
        if len(self.fail_samples) < 5:
            self.fail_samples.append(msg[:300])
        if self.n_fail > 1000 and self.n_fail > self.n_raw:
            sys.exit('too many failures: ' + ' | '.join(self.fail_samples))


def log(msg):
    print(f'[{time.strftime("%H:%M:%S")}] {msg}', file=sys.stderr, flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--ntx', type=int, required=True)
    ap.add_argument('--rpcport', type=int, required=True)
    ap.add_argument('--rpcuser', required=True)
    ap.add_argument('--rpcpassword', required=True)
    ap.add_argument('--min-per-block', type=int, default=200)
    ap.add_argument('--max-per-block', type=int, default=500)
    ap.add_argument('--initial-blocks', type=int, default=150)
    ap.add_argument('--wallet-share', type=float, default=0.01)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--mweb', type=int, default=0)
    ap.add_argument('--sign-threads', type=int, default=2)
    ap.add_argument('--summary', required=True)
    a = ap.parse_args()
    Gen(a).run()


if __name__ == '__main__':
    main()
