/**
 * The network confidence model (docs/confidence.md): how far an unconfirmed, not double-spent transaction has
 * propagated, from what the P2P listener sampled.
 *
 *   share = holders / samples, where the samples are the peers that could have announced it (connected since before
 *           it was first seen and still connected, or that did) plus our own node, and the holders are the peers that
 *           announced it plus our node if its mempool holds it (our node validated it; its refusal counts against)
 *   time  = min(1, seconds since first seen / the network's propagation time)
 *   confidence = 0.99 × share × (0.92 + 0.08 × time), to the spec's 1 % (two decimals)
 *
 * Every sampled peer having it within the first second gives 0.91: under the first-seen rule those nodes refuse a
 * conflicting spend, so a double spend can only reach the part of the network that has not heard of it yet. The
 * rest comes with time: a tx that every sample still holds after the propagation time reaches 0.99. A peer that
 * never announces it holds confidence down for good (its mempool refused the tx, or never got it): one of nine
 * samples (eight peers and our node) gives at most 0.88.
 */

export interface PeerEvidence {
  /** Sampled nodes holding the tx. */
  readonly holders: number;
  /** Nodes sampled. */
  readonly sampled: number;
  readonly ageSeconds: number;
  readonly propagationSeconds: number;
}

export function networkConfidence(e: PeerEvidence): number {
  if (e.sampled <= 0 || e.holders <= 0) return 0;
  const share = Math.min(1, e.holders / e.sampled);
  const time = Math.min(1, Math.max(0, e.ageSeconds) / e.propagationSeconds);
  return Math.min(0.99, Math.round(99 * share * (0.92 + 0.08 * time)) / 100);
}
