// Public surface of the pure parsers: callers import from here, not from the individual files.
export { ByteReader, displayHex, MAX_COMPACT_SIZE } from './bytes/byte-reader.js';
export { ByteWriter } from './bytes/byte-writer.js';
export { parseTransaction, readTransaction, type TxParseOptions, type TxSizes } from './tx/tx-parser.js';
export { serializeTransaction, type TxSerializeOptions } from './tx/tx-serializer.js';
export { parseBlockHeader, readBlockHeader, HEADER_SIZE } from './block/block-header.js';
export { readAuxPow, hasAuxPow, auxPowChainId, AUXPOW_VERSION_BIT } from './block/auxpow.js';
export { readMwebBlock, MWEB_VERSION_BIT } from './block/mweb-block.js';
export { parseBlock } from './block/block-parser.js';
export { serializeAuxPow, serializeBlock, serializeBlockHeader, type BlockParts, type HeaderFields } from './block/block-serializer.js';
export { merkleRoot, merkleRootOfHashes, witnessCommitment, witnessCommitmentOk } from './block/merkle.js';
export { difficultyFromBits, formatDifficulty, targetFromBits, workFromBits } from './block/difficulty.js';
export { coinbaseHeight, printableRuns } from './block/coinbase.js';
export { blockMiner, coinbaseTag, type BlockMiner } from './block/block-miner.js';
export { peekBlock } from './block/block-peek.js';
