"""Keys, addresses and unsigned raw transactions for the Litecoin regtest chain maker (chaingen.py).

Sequential secp256k1 keys (P(i+1) = P(i) + G: one point addition per key), their P2PKH, P2SH-P2WPKH and P2WPKH
scripts and addresses with Litecoin regtest prefixes, and the legacy serialization of an unsigned transaction (the
node signs it). Stdlib only.
"""
import hashlib
from decimal import Decimal

# ---------------------------------------------------------------- secp256k1 / keys
P = 2**256 - 2**32 - 977
N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
G = (0x79BE667EF9DCBBAC55A06295CE870B07029BFCDB2DCE28D959F2815B16F81798,
     0x483ADA7726A3C4655DA4FBFC0E1108A8FD17B448A68554199C47D08FFB10D4B8)


def ec_add(a, b):
    if a is None:
        return b
    if b is None:
        return a
    x1, y1 = a
    x2, y2 = b
    if x1 == x2:
        if (y1 + y2) % P == 0:
            return None
        lam = 3 * x1 * x1 * pow(2 * y1, -1, P) % P
    else:
        lam = (y2 - y1) * pow(x2 - x1, -1, P) % P
    x3 = (lam * lam - x1 - x2) % P
    return (x3, (lam * (x1 - x3) - y1) % P)


def ec_mul(k, pt=G):
    r = None
    while k:
        if k & 1:
            r = ec_add(r, pt)
        pt = ec_add(pt, pt)
        k >>= 1
    return r


def sha256(b):
    return hashlib.sha256(b).digest()


def hash160(b):
    return hashlib.new('ripemd160', sha256(b)).digest()


B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'


def b58check(payload):
    data = payload + sha256(sha256(payload))[:4]
    n = int.from_bytes(data, 'big')
    out = ''
    while n:
        n, r = divmod(n, 58)
        out = B58[r] + out
    pad = len(data) - len(data.lstrip(b'\0'))
    return '1' * pad + out


BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l'


def _polymod(values):
    gen = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3]
    chk = 1
    for v in values:
        b = chk >> 25
        chk = (chk & 0x1ffffff) << 5 ^ v
        for i in range(5):
            chk ^= gen[i] if ((b >> i) & 1) else 0
    return chk


def bech32_addr(hrp, witver, prog):
    acc, bits, data = 0, 0, [witver]
    for b in prog:
        acc = (acc << 8) | b
        bits += 8
        while bits >= 5:
            bits -= 5
            data.append((acc >> bits) & 31)
    if bits:
        data.append((acc << (5 - bits)) & 31)
    hrpx = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]
    pm = _polymod(hrpx + data + [0] * 6) ^ 1
    chk = [(pm >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + '1' + ''.join(BECH32[d] for d in data + chk)


# Litecoin regtest prefixes (chainparams.cpp, regtest): P2PKH 111, P2SH 58, bech32 "rltc",
# WIF 239.
VER_P2PKH, VER_P2SH, HRP, VER_WIF = 111, 58, 'rltc', 239
T_LEGACY, T_P2SH_SEGWIT, T_BECH32 = 0, 1, 2
TYPE_NAMES = ('legacy', 'p2sh-segwit', 'bech32')
IN_VSIZE = (149, 92, 69)     # upper bounds, vbytes per input
OUT_SIZE = (34, 32, 31)


class Keys:
    """Sequential keys k0+i. Per key: script type, scriptPubKey, address, lazily WIF."""

    def __init__(self, seed):
        self.k0 = int.from_bytes(sha256(b'peer-chain/' + seed.encode()), 'big') % (N // 2) + 1
        self.pt = None
        self.priv, self.typ, self.spk, self.addr = [], [], [], []
        self._wif = {}
        self.by_spk = {}

    def new(self, typ):
        i = len(self.priv)
        self.pt = ec_mul(self.k0) if self.pt is None else ec_add(self.pt, G)
        x, y = self.pt
        pub = bytes([2 + (y & 1)]) + x.to_bytes(32, 'big')
        h = hash160(pub)
        if typ == T_LEGACY:
            spk = b'\x76\xa9\x14' + h + b'\x88\xac'
            addr = b58check(bytes([VER_P2PKH]) + h)
        elif typ == T_P2SH_SEGWIT:
            sh = hash160(b'\x00\x14' + h)
            spk = b'\xa9\x14' + sh + b'\x87'
            addr = b58check(bytes([VER_P2SH]) + sh)
        else:
            spk = b'\x00\x14' + h
            addr = bech32_addr(HRP, 0, h)
        self.priv.append(self.k0 + i)
        self.typ.append(typ)
        self.spk.append(spk)
        self.addr.append(addr)
        self.by_spk[spk.hex()] = i
        return i

    def wif(self, i):
        w = self._wif.get(i)
        if w is None:
            w = b58check(bytes([VER_WIF]) + self.priv[i].to_bytes(32, 'big') + b'\x01')
            self._wif[i] = w
        return w


# ---------------------------------------------------------------- tx serialization
def varint(n):
    if n < 0xfd:
        return bytes([n])
    if n <= 0xffff:
        return b'\xfd' + n.to_bytes(2, 'little')
    return b'\xfe' + n.to_bytes(4, 'little')


def raw_tx(version, ins, outs, locktime):
    """ins: [(txid_hex, vout, sequence)], outs: [(value_sat, spk_bytes)] -> hex (unsigned)."""
    parts = [version.to_bytes(4, 'little'), varint(len(ins))]
    for txid, vout, seq in ins:
        parts.append(bytes.fromhex(txid)[::-1] + vout.to_bytes(4, 'little') + b'\x00'
                     + seq.to_bytes(4, 'little'))
    parts.append(varint(len(outs)))
    for val, spk in outs:
        parts.append(val.to_bytes(8, 'little') + varint(len(spk)) + spk)
    parts.append(locktime.to_bytes(4, 'little'))
    return b''.join(parts).hex()



def sat(v):
    return int((Decimal(v) * 100000000).to_integral_value())


def ltc(s):
    return f'{s // 100000000}.{s % 100000000:08d}'

