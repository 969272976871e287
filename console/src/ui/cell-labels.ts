// Makes a DataTable readable as cards on a phone: writes each body cell's column heading into its `data-label`,
// which the stylesheet shows before the value, and gives every part of the table its role explicitly, because some
// browsers drop a table's semantics from the accessibility tree once it is laid out with `display: block`. Rows
// come from each page's own components (some keep state and replace their cells on their own), so this works on
// the DOM, and again after every change to the rows, rather than on each page's cells.

function setRole(element: Element, role: string): void {
  if (element.getAttribute('role') !== role) element.setAttribute('role', role);
}

/** Roles for the table, its sections, rows and cells; labels for the body's cells by column (colspans counted). */
function labelCells(table: HTMLTableElement, labels: readonly string[]): void {
  setRole(table, 'table');
  for (const section of [table.tHead, ...table.tBodies]) {
    if (!section) continue;
    setRole(section, 'rowgroup');
    const inBody = section !== table.tHead;
    for (const row of section.rows) {
      setRole(row, 'row');
      let column = 0;
      for (const cell of row.cells) {
        setRole(cell, !inBody ? 'columnheader' : cell.tagName === 'TH' ? 'rowheader' : 'cell');
        const label = inBody ? (labels[column] ?? '') : '';
        // An empty label (a hidden heading, as for a row's actions) writes none: the card shows no label there.
        if (!label) cell.removeAttribute('data-label');
        else if (cell.dataset.label !== label) cell.dataset.label = label;
        column += cell.colSpan;
      }
    }
  }
}

/**
 * A ref callback for a `<table>`: labels it now and again whenever rows or cells are added or replaced (a
 * MutationObserver's callback runs before the next paint). React 19 calls the returned cleanup.
 */
export function cellLabeller(labels: readonly string[]) {
  return (table: HTMLTableElement | null) => {
    if (!table) return;
    labelCells(table, labels);
    // Attribute changes are not observed, so the labeller's own writes do not call it again.
    const observer = new MutationObserver(() => labelCells(table, labels));
    observer.observe(table, { childList: true, subtree: true });
    return () => observer.disconnect();
  };
}
