/**
 * Table rows kept from one snapshot to the next, by key. A snapshot comes up to ten times a
 * second; redrawing every row of every table each time cost the page its speed at 50 agents
 * and 1,000 calls (bench/scenarios/dashboard.ts), and wiped a cancel being confirmed. Here a
 * row is made once, then only the text that changed is written.
 */

/** Writes a node's text only when it differs (a write costs a layout even when equal). */
export function setText(node: Node, text: string): void {
  if (node.textContent !== text) node.textContent = text;
}

/** The placeholder row of an empty table. */
function emptyRow(text: string, columns: number): HTMLTableRowElement {
  const row = document.createElement('tr');
  const cell = document.createElement('td');
  cell.className = 'empty';
  cell.colSpan = columns;
  cell.textContent = text;
  row.append(cell);
  return row;
}

export interface RowsOf<T> {
  key: (item: T) => string;
  create: (item: T) => HTMLTableRowElement;
  /** Brings a kept row up to date (elapsed time, progress, counts). */
  update?: (row: HTMLTableRowElement, item: T) => void;
  empty: string;
  columns: number;
}

/** Makes `body` hold one row per item, in order: new rows made, gone ones removed, kept ones updated. */
export function syncRows<T>(body: HTMLElement, items: readonly T[], rows: RowsOf<T>): void {
  const kept = new Map<string, HTMLTableRowElement>();
  for (const row of Array.from(body.children) as HTMLTableRowElement[]) {
    const key = row.dataset.key;
    if (key === undefined) row.remove();
    else kept.set(key, row);
  }
  let at = 0;
  for (const item of items) {
    const key = rows.key(item);
    let row = kept.get(key);
    if (row) {
      kept.delete(key);
      rows.update?.(row, item);
    } else {
      row = rows.create(item);
      row.dataset.key = key;
    }
    if (body.children[at] !== row) body.insertBefore(row, body.children[at] ?? null);
    at++;
  }
  for (const row of kept.values()) row.remove();
  if (items.length === 0) body.append(emptyRow(rows.empty, rows.columns));
}

/**
 * Puts rows for newly finished calls at the top, newest first, and drops the oldest past
 * `limit`: the work is the new calls', whatever the list holds.
 */
export function prependRows(body: HTMLElement, fresh: HTMLTableRowElement[], limit: number, empty: string, columns: number): void {
  if (fresh.length > 0) {
    const placeholder = body.querySelector('td.empty');
    placeholder?.parentElement?.remove();
    const top = document.createDocumentFragment();
    for (let i = fresh.length - 1; i >= 0; i--) top.append(fresh[i] as HTMLTableRowElement);
    body.prepend(top);
    while (body.children.length > limit) body.lastElementChild?.remove();
  }
  if (body.children.length === 0) body.append(emptyRow(empty, columns));
}
