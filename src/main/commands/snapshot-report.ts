/**
 * What `outpoint snapshot import` says it checked, and what it took on trust: plainly, since "verified" alone once
 * stood for digests a writer can recompute (docs/snapshots.md, "What is verified").
 */
import type { SnapshotChecks } from '../../store/common/dump/snapshot-verify.js';

export function snapshotReport(checks: SnapshotChecks | null, nodeChecked: boolean): string {
  if (!checks) {
    return `checked: digests${nodeChecked ? "; the tip against the node's" : ''} (--skip-chain-check: the rows were not checked against the chain)\n` +
      'taken on trust: every row: balances, outputs, spends and blocks are served as the snapshot says\n' +
      'Skip the chain check only for a snapshot you exported yourself.\n';
  }
  const chain = nodeChecked ? "and their chain to the node's tip" : 'and their chain to the snapshot\'s tip (not compared with a node: --no-node-check)';
  const checked = [
    'digests',
    `${checks.blocks} block headers ${chain}`,
    `the merkle roots of ${checks.txs} txs`,
    `${checks.rawTxs} raw txs against their txids, outputs and spends`,
    `the totals and counts of ${checks.scripts} scripts against the outputs and history`,
  ];
  const trusted = [
    'which txs each history row names (only their counts per script)',
    'first-seen times',
    ...(checks.withoutRaw > 0 ? [`the outputs and spends of ${checks.withoutRaw} txs whose raw bytes the snapshot does not hold`] : []),
    ...(nodeChecked ? [] : ['that the tip is on the node\'s chain (the indexer checks it at start)']),
  ];
  return `checked: ${checked.join('; ')}\n` +
    `taken on trust: ${trusted.join('; ')}\n` +
    'Import snapshots only from a source you trust: what is not checked is served as the snapshot says.\n';
}
