/**
 * Transaction detail and unconfirmed-tx insight (issue 30, Missing 2 and 3, the parts built) on `outpoint serve` over
 * litecoind -regtest: each input's sequence, scriptSig and witness and each output's script as ASM with its type,
 * shown on request (`?scripts=1`), equal to the node's own decoding (getrawtransaction verbose); BIP125 signalling shown as
 * "replaceable" for a tx the node marks bip125-replaceable, and not for one that does not signal; open at 375 px the
 * scripts wrap instead of widening the page; axe clean in both themes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { seriousViolations, watchedPage } from '../helpers/browser.js';
import { SLUG, startExplorerChain, type ExplorerChain } from './explorer-fixture.js';

let chain: ExplorerChain;
let replaceable: string;
let final: string;
before(async () => {
  chain = await startExplorerChain();
  const send = (rbf: boolean): Promise<string> => chain.node.newAddress('bech32').then((a) => chain.node.rpc.call<string>('sendtoaddress', [a, 0.02, '', '', false, rbf]));
  replaceable = await send(true);
  final = await send(false);
  await chain.synced();
});
after(async () => chain?.close());

interface NodeTx {
  vin: { sequence: number; scriptSig?: { asm: string }; txinwitness?: string[]; coinbase?: string }[];
  vout: { scriptPubKey: { asm: string; type: string } }[];
}

describe('transaction detail', () => {
  it('scripts, sequences and witnesses as the node decodes them, shown on request (a plain link)', async () => {
    const { page, problems, context } = await watchedPage(chain.browser);
    try {
      for (const txid of [chain.paymentTxid, replaceable]) {
        const tx = await chain.node.rpc.call<NodeTx>('getrawtransaction', [txid, true]);
        await page.goto(`${chain.serve.url}/${SLUG}/tx/${txid}`);
        assert.equal(await page.locator('section[aria-labelledby="script-in-0"]').count(), 0, 'not shown by default');
        await page.click('#scripts a');
        await page.waitForURL(/scripts=1#scripts$/);
        for (const [i, vin] of tx.vin.entries()) {
          const item = page.locator(`section[aria-labelledby="script-in-${i}"]`);
          assert.match(await item.locator('dt:text-is("Sequence") + dd').innerText(), new RegExp(`^0x${vin.sequence.toString(16).padStart(8, '0')}`));
          const sig = (await item.locator('dt:text-is("scriptSig") + dd').innerText()).trim();
          assert.equal(sig, vin.scriptSig?.asm ? vin.scriptSig.asm : '(empty)');
          const witness = await item.locator('.witness li').allInnerTexts();
          assert.deepEqual(witness.map((w) => w.trim()), vin.txinwitness ?? []);
        }
        for (const [i, vout] of tx.vout.entries()) {
          const item = page.locator(`section[aria-labelledby="script-out-${i}"]`);
          assert.equal((await item.locator('dt:text-is("Script") + dd').innerText()).trim(), vout.scriptPubKey.asm);
        }
      }
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  it('BIP125 signalling: "replaceable" where the node says bip125-replaceable, "no" where it does not', async () => {
    for (const [txid, expected] of [[replaceable, 'yes'], [final, 'no']] as const) {
      const entry = await chain.node.rpc.call<{ 'bip125-replaceable': boolean }>('getmempoolentry', [txid]);
      assert.equal(entry['bip125-replaceable'], expected === 'yes');
      const body = await (await fetch(`${chain.serve.url}/${SLUG}/tx/${txid}`)).text();
      const field = /<dt>Replaceable<\/dt><dd>([\s\S]*?)<\/dd>/.exec(body)![1]!;
      if (expected === 'yes') assert.match(field, /replaceable<\/span>.*signals BIP125/);
      else assert.match(field, /^no \(does not signal BIP125\)/);
    }
  });

  it('opened at 375 px the scripts wrap; axe clean in both themes', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const { page, context } = await watchedPage(chain.browser, { colorScheme, viewport: { width: 375, height: 800 } });
      try {
        await page.goto(`${chain.serve.url}/${SLUG}/tx/${replaceable}?scripts=1`);
        assert.ok(await page.evaluate<number>('document.documentElement.scrollWidth') <= 375);
        assert.deepEqual(await seriousViolations(page), [], colorScheme);
      } finally {
        await context.close();
      }
    }
  });
});

describe('unconfirmed-tx insight', () => {
  it('a mempool tx shows its place in the projection with an ETA, and what its confidence means with the evidence', async () => {
    const body = await (await fetch(`${chain.serve.url}/${SLUG}/tx/${replaceable}`)).text();
    const entry = await chain.node.rpc.call<{ fees: { base: number }; vsize: number }>('getmempoolentry', [replaceable]);
    const rate = (Math.round(entry.fees.base * 1e8) / entry.vsize).toFixed(2);
    // Regtest blocks take the whole mempool: the next block, one block interval (2.5 min) away.
    assert.match(body, new RegExp(`At ${rate} litoshi/vB \\(effective\\) it is projected into the next block \\(~3 min at one block every 2.5 min\\)`));
    assert.match(body, /Confidence is our estimate, from 0 to 1, that this transaction will confirm/);
    assert.ok(body.includes(`href="/api/v2/get_confidence/LTCTEST/${replaceable}"`));
    // A confirmed tx has neither.
    const confirmed = await (await fetch(`${chain.serve.url}/${SLUG}/tx/${chain.paymentTxid}`)).text();
    assert.doesNotMatch(confirmed, /projected into|Confidence is our estimate/);
  });
});

describe('effective fee rate (CPFP)', () => {
  it("a parent paid for by its child shows the package rate the node's getmempoolentry gives, and the child its ancestor package", async () => {
    const to = await chain.node.newAddress('bech32');
    const parent = await chain.node.rpc.call<string>('sendtoaddress', [to, 1, '', '', false, true, null, 'unset', false, 10]);
    const decoded = await chain.node.rpc.call<{ vout: { n: number; scriptPubKey: { address?: string; addresses?: string[] } }[] }>('getrawtransaction', [parent, true]);
    const vout = decoded.vout.find((o) => (o.scriptPubKey.address ?? o.scriptPubKey.addresses?.[0]) === to)!.n;
    const sent = await chain.node.rpc.call<{ txid: string }>('send', [{ [await chain.node.newAddress('bech32')]: 0.5 }, null, 'unset', 200, { inputs: [{ txid: parent, vout }], add_inputs: false }]);
    await chain.synced();
    type Entry = { vsize: number; fees: { base: number; ancestor: number; descendant: number }; ancestorsize: number; descendantsize: number };
    const sats = (coins: number): number => Math.round(coins * 1e8);
    const parentEntry = await chain.node.rpc.call<Entry>('getmempoolentry', [parent]);
    const childEntry = await chain.node.rpc.call<Entry>('getmempoolentry', [sent.txid]);
    const packageRate = (sats(parentEntry.fees.descendant) / parentEntry.descendantsize).toFixed(2);
    const field = async (txid: string): Promise<string> => {
      const body = await (await fetch(`${chain.serve.url}/${SLUG}/tx/${txid}`)).text();
      return /<dt>Effective fee rate<\/dt><dd>([\s\S]*?)<\/dd>/.exec(body)![1]!;
    };
    const parentField = await field(parent);
    assert.match(parentField, new RegExp(`^${packageRate} litoshi/vB .*with 1 descendant \\(CPFP`));
    assert.ok(Number(packageRate) > sats(parentEntry.fees.base) / parentEntry.vsize, 'the child raises the parent');
    const childField = await field(sent.txid);
    assert.match(childField, new RegExp(`^${(sats(childEntry.fees.ancestor) / childEntry.ancestorsize).toFixed(2)} litoshi/vB .*with 1 unconfirmed ancestor`));
  });
});

describe('transaction flow', () => {
  it("draws every input and output with the values v2 get_tx answers; fits 375 px", async () => {
    const api = ((await (await fetch(`${chain.serve.url}/api/v2/get_tx/LTCTEST/${chain.paymentTxid}`)).json()) as { data: { inputs: { value: string }[]; outputs: { value: string }[] } }).data;
    const { page, problems, context } = await watchedPage(chain.browser, { viewport: { width: 375, height: 800 } });
    try {
      await page.goto(`${chain.serve.url}/${SLUG}/tx/${chain.paymentTxid}`);
      const titles = async (side: string): Promise<string[]> => page.locator(`.tx-flow g.flow-item[data-key^="${side}-"] > title`).allTextContents();
      assert.deepEqual((await titles('in')).map((t) => t.split(': ')[1]), api.inputs.map((i) => `${i.value} LTC`));
      assert.deepEqual((await titles('out')).map((t) => t.split(': ')[1]), api.outputs.map((o) => `${o.value} LTC`));
      assert.ok(await page.evaluate<number>('document.documentElement.scrollWidth') <= 375);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});
