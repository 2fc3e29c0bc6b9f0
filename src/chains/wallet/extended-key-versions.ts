/**
 * Version bytes of extended keys (BIP32 serialisation) per network, from SLIP-132 ("Registered HD version bytes for
 * BIP-0032", satoshilabs/slips) and each coin's Core chainparams (EXT_PUBLIC_KEY / EXT_SECRET_KEY). The version is
 * what tells a network's keys from another's (a mainnet key on a test network is refused), and for a plain key, which
 * script its addresses use. The first entry of each list is the node's own version: the one normalised descriptors
 * spell their key with, so that the node itself would import them.
 */

/** The scripts a plain extended public key can stand for (descriptors name theirs; `tr` has no SLIP-132 prefix). */
export type KeyScript = 'pkh' | 'sh-wpkh' | 'wpkh';

export interface ExtendedKeyVersion {
  /** What the base58 text starts with: "xpub", "zpub", "Ltub". */
  readonly prefix: string;
  /** The 4 version bytes of the public form, as a big-endian number. */
  readonly public: number;
  /** Of the private form: recognised only to refuse it with a clear reason. */
  readonly private: number;
  readonly script: KeyScript;
}

const XPUB: ExtendedKeyVersion = { prefix: 'xpub', public: 0x0488b21e, private: 0x0488ade4, script: 'pkh' };
const YPUB: ExtendedKeyVersion = { prefix: 'ypub', public: 0x049d7cb2, private: 0x049d7878, script: 'sh-wpkh' };
const ZPUB: ExtendedKeyVersion = { prefix: 'zpub', public: 0x04b24746, private: 0x04b2430c, script: 'wpkh' };
const TPUB: ExtendedKeyVersion = { prefix: 'tpub', public: 0x043587cf, private: 0x04358394, script: 'pkh' };
const UPUB: ExtendedKeyVersion = { prefix: 'upub', public: 0x044a5262, private: 0x044a4e28, script: 'sh-wpkh' };
const VPUB: ExtendedKeyVersion = { prefix: 'vpub', public: 0x045f1cf6, private: 0x045f18bc, script: 'wpkh' };
/** SLIP-132's Litecoin entries (Electrum-LTC, Trezor); Litecoin Core itself writes xpub/tpub. */
const LTUB: ExtendedKeyVersion = { prefix: 'Ltub', public: 0x019da462, private: 0x019d9cfe, script: 'pkh' };
const MTUB: ExtendedKeyVersion = { prefix: 'Mtub', public: 0x01b26ef6, private: 0x01b26792, script: 'sh-wpkh' };
const TTUB: ExtendedKeyVersion = { prefix: 'ttub', public: 0x0436f6e1, private: 0x0436ef7d, script: 'pkh' };
/** Dogecoin Core's main-network EXT_PUBLIC_KEY (its testnet and regtest keep Bitcoin's tpub). */
const DGUB: ExtendedKeyVersion = { prefix: 'dgub', public: 0x02facafd, private: 0x02fac398, script: 'pkh' };

export const BITCOIN_MAIN_KEYS: readonly ExtendedKeyVersion[] = Object.freeze([XPUB, YPUB, ZPUB]);
export const BITCOIN_TEST_KEYS: readonly ExtendedKeyVersion[] = Object.freeze([TPUB, UPUB, VPUB]);
export const LITECOIN_MAIN_KEYS: readonly ExtendedKeyVersion[] = Object.freeze([XPUB, YPUB, ZPUB, LTUB, MTUB]);
export const LITECOIN_TEST_KEYS: readonly ExtendedKeyVersion[] = Object.freeze([TPUB, UPUB, VPUB, TTUB]);
/** Dogecoin has no segwit: its keys only ever pay P2PKH. */
export const DOGECOIN_MAIN_KEYS: readonly ExtendedKeyVersion[] = Object.freeze([DGUB]);
export const DOGECOIN_TEST_KEYS: readonly ExtendedKeyVersion[] = Object.freeze([TPUB]);

/** Every version any supported network uses: to say which network a refused key belongs to. */
export const ALL_KEY_VERSIONS: readonly ExtendedKeyVersion[] = Object.freeze([XPUB, YPUB, ZPUB, TPUB, UPUB, VPUB, LTUB, MTUB, TTUB, DGUB]);
