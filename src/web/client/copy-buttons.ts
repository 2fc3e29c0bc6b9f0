/**
 * `<button data-copy="ID" hidden>` copies the text of element ID. The server renders the buttons hidden
 * (without JavaScript they could do nothing); this script shows them.
 */
export function startCopyButtons(root: Document): void {
  for (const button of root.querySelectorAll<HTMLButtonElement>('button[data-copy]')) button.hidden = false;
  root.addEventListener('click', (event) => {
    const button = (event.target as Element | null)?.closest<HTMLButtonElement>('button[data-copy]');
    const source = button ? root.getElementById(button.dataset['copy'] ?? '') : null;
    if (!button || !source) return;
    const text = source.textContent ?? '';
    const done = (label: string): void => {
      const original = button.dataset['label'] ?? button.textContent ?? '';
      button.dataset['label'] = original;
      button.textContent = label;
      setTimeout(() => (button.textContent = original), 1500);
    };
    if (!navigator.clipboard) return selectText(source, done);
    navigator.clipboard.writeText(text).then(
      () => done('Copied'),
      () => selectText(source, done),
    );
  });
}

/** Where the clipboard API is refused (plain http on another host), select the text so the user can copy it. */
function selectText(element: Element, done: (label: string) => void): void {
  const range = document.createRange();
  range.selectNodeContents(element);
  const selection = window.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
  done('Selected');
}
