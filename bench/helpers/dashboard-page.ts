/**
 * The dashboard page as the benchmark watches it, in headless Chromium: when rows of given
 * tools enter the recent-calls and calls-in-flight tables (stamped by a MutationObserver in
 * the page, on the wall clock the bench process shares), and what the page holds (JS heap
 * after a forced GC, DOM nodes, listeners, main-thread time) through the DevTools protocol.
 * The observer's script is a string (this code is typed for Node, not the DOM); predicates are
 * functions, as the page's content security policy forbids evaluating strings in it.
 */
import type { CDPSession, Page } from 'playwright-core';

export type Table = 'recent' | 'inflight';

/** The page's globals that the predicates below read (each runs in the page: no closures). */
interface InPage {
  __benchRows: Record<Table, number[]>;
  document: { querySelectorAll(selector: string): { length: number } };
}

export interface PageMemory {
  /** JS heap in use after a forced GC, MiB. */
  heapMiB: number;
  /** Nodes in the page (elements and text), after the same GC. */
  domNodes: number;
  listeners: number;
  recentRows: number;
  /** The page's main-thread time so far (all tasks; script, layout and style within), seconds. */
  taskSeconds: number;
  scriptSeconds: number;
  layoutSeconds: number;
  styleSeconds: number;
}

/** Records the arrival of rows of `tools` only: a page holding every row's stamp would grow by itself. */
function observerScript(tools: Record<Table, string>): string {
  return `(() => {
    const tools = ${JSON.stringify(tools)};
    const seen = (window.__benchRows = { recent: [], inflight: [] });
    const watch = (table, toolCell) => new MutationObserver((records) => {
      const at = performance.timeOrigin + performance.now();
      for (const record of records)
        for (const row of record.addedNodes)
          if (row.nodeType === 1 && row.dataset.call && row.cells[toolCell]?.textContent === tools[table]) seen[table].push(at);
    }).observe(document.querySelector('#' + table + ' tbody'), { childList: true });
    watch('recent', 1);
    watch('inflight', 0);
  })()`;
}

export class WatchedPage {
  private constructor(
    readonly page: Page,
    private readonly cdp: CDPSession,
  ) {}

  /** Watches for rows of one tool in each table. */
  static async watch(page: Page, tools: Record<Table, string>): Promise<WatchedPage> {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    await page.evaluate(observerScript(tools));
    return new WatchedPage(page, cdp);
  }

  /** When (wall-clock ms) the `nth` row (from 1) of a watched tool entered `table`. */
  async rowAt(table: Table, nth: number, timeoutMs = 20_000): Promise<number> {
    const [list, count] = [table, nth] as const;
    await this.page.waitForFunction(({ list, count }) => (globalThis as unknown as InPage).__benchRows[list].length >= count, { list, count }, { timeout: timeoutMs, polling: 20 });
    return (await this.page.evaluate(({ list, count }) => (globalThis as unknown as InPage).__benchRows[list][count - 1], { list, count })) as number;
  }

  /** Resolves once the recent-calls table holds `rows` calls. */
  async recentRowsAtLeast(rows: number, timeoutMs = 60_000): Promise<void> {
    await this.page.waitForFunction((rows) => (globalThis as unknown as InPage).document.querySelectorAll('#recent tbody tr[data-call]').length >= rows, rows, { timeout: timeoutMs, polling: 100 });
  }

  async memory(): Promise<PageMemory> {
    await this.cdp.send('HeapProfiler.collectGarbage');
    const { metrics } = await this.cdp.send('Performance.getMetrics');
    const metric = (name: string): number => metrics.find((m) => m.name === name)?.value ?? NaN;
    const recentRows = await this.page.evaluate(() => (globalThis as unknown as InPage).document.querySelectorAll('#recent tbody tr[data-call]').length);
    return {
      heapMiB: metric('JSHeapUsedSize') / 2 ** 20,
      domNodes: metric('Nodes'),
      listeners: metric('JSEventListeners'),
      recentRows,
      taskSeconds: metric('TaskDuration'),
      scriptSeconds: metric('ScriptDuration'),
      layoutSeconds: metric('LayoutDuration'),
      styleSeconds: metric('RecalcStyleDuration'),
    };
  }
}
