/**
 * Suggestions under the search box as one types (docs/explorer.md, "Search suggestions"): the ARIA 1.2 combobox
 * pattern over the server's suggestion fragment (`/search?part=suggest&q=…`, rendered and escaped by the server, counted
 * under the live-refresh budget). Progressive enhancement: without this script the form is a plain GET to /search,
 * which lands on the same pages. Keys: Down/Up move through the options, Enter opens the highlighted one (or submits
 * the form as typed when none is), Escape closes the list; a click opens an option.
 */

/** Keystrokes closer together than this make one request. */
const DEBOUNCE_MS = 150;
/** Queries the server can answer (a height, or at least 4 characters); shorter input asks nothing. */
const WORTH_ASKING = /^\s*(\d+|\S{4,})\s*$/;

export function startSearchSuggest(root: Document): void {
  for (const input of root.querySelectorAll<HTMLInputElement>('form.search input[name="q"]')) {
    if (input.id) enhance(root, input);
  }
}

function enhance(root: Document, input: HTMLInputElement): void {
  const form = input.form!;
  const list = root.createElement('ul');
  list.id = `${input.id}-suggestions`;
  list.className = 'suggestions';
  list.setAttribute('role', 'listbox');
  list.setAttribute('aria-label', 'Suggestions');
  list.hidden = true;
  form.classList.add('has-suggestions');
  form.append(list);
  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-autocomplete', 'list');
  input.setAttribute('aria-controls', list.id);
  input.setAttribute('aria-expanded', 'false');

  let timer: ReturnType<typeof setTimeout> | null = null;
  let inFlight: AbortController | null = null;
  let active = -1;
  const options = (): HTMLElement[] => [...list.querySelectorAll<HTMLElement>('[role="option"]')];

  const close = (): void => {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    active = -1;
  };
  const highlight = (index: number): void => {
    const all = options();
    if (all.length === 0) return;
    active = (index + all.length) % all.length;
    all.forEach((o, i) => o.setAttribute('aria-selected', String(i === active)));
    input.setAttribute('aria-activedescendant', all[active]!.id);
    all[active]!.scrollIntoView({ block: 'nearest' });
  };
  const open = (option: HTMLElement): void => {
    const href = option.dataset['href'];
    if (href && href.startsWith('/')) location.assign(href);
  };

  const ask = async (query: string): Promise<void> => {
    inFlight?.abort();
    const controller = new AbortController();
    inFlight = controller;
    try {
      const response = await fetch(`/search?part=suggest&q=${encodeURIComponent(query)}`, { signal: controller.signal, headers: { accept: 'text/html' } });
      // A refusal (429) or an error just shows nothing: the next keystroke asks again, and Enter still searches.
      if (!response.ok || input.value !== query) return;
      const parsed = new DOMParser().parseFromString(await response.text(), 'text/html');
      const found = [...parsed.querySelectorAll<HTMLElement>('[role="option"]')];
      list.replaceChildren(...found.map((o, i) => {
        const item = root.importNode(o, true);
        item.id = `${list.id}-${i}`;
        item.setAttribute('aria-selected', 'false');
        return item;
      }));
      active = -1;
      input.removeAttribute('aria-activedescendant');
      list.hidden = found.length === 0;
      input.setAttribute('aria-expanded', String(found.length > 0));
    } catch {
      // Aborted by a newer keystroke, or offline: nothing to show.
    }
  };

  input.addEventListener('input', () => {
    if (timer) clearTimeout(timer);
    const query = input.value;
    if (!WORTH_ASKING.test(query)) {
      inFlight?.abort();
      close();
      return;
    }
    timer = setTimeout(() => void ask(query), DEBOUNCE_MS);
  });
  input.addEventListener('keydown', (event) => {
    const shown = !list.hidden && options().length > 0;
    if (event.key === 'ArrowDown' && shown) {
      event.preventDefault();
      highlight(active + 1);
    } else if (event.key === 'ArrowUp' && shown) {
      event.preventDefault();
      highlight(active - 1);
    } else if (event.key === 'Escape' && shown) {
      event.preventDefault();
      close();
    } else if (event.key === 'Enter' && shown && active >= 0) {
      event.preventDefault();
      open(options()[active]!);
    }
  });
  // mousedown, not click: the input keeps focus (no blur closing the list first).
  list.addEventListener('mousedown', (event) => {
    const option = (event.target as Element | null)?.closest<HTMLElement>('[role="option"]');
    if (!option) return;
    event.preventDefault();
    open(option);
  });
  input.addEventListener('blur', close);
}
