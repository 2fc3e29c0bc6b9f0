import { benchChain } from '/work/wt-wallets/bench/bench-chain.js';
const c = await benchChain();
console.log('hot', c.hot);
await c.close();
