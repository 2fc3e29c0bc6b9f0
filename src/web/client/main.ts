/**
 * The explorer's only script (a module, so it runs after the page is parsed). Pages are complete without it;
 * it keeps relative times current, enables copy buttons, suggests as one types in the search box, and makes marked regions live over our own realtime
 * server (pusher-js to /app/{key} on this host).
 */
import { startCopyButtons } from './copy-buttons.js';
import { startLive } from './live-regions.js';
import { startRelativeTimes } from './relative-times.js';
import { startSearchSuggest } from './search-suggest.js';

startRelativeTimes(document);
startCopyButtons(document);
startLive(document);
startSearchSuggest(document);
