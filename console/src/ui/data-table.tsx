// The console's one table: a labelled table of rows with its column headings, or a sentence when there are none.
import type { ReactNode } from 'react';
import { Empty } from './status.js';

/** A heading; `num` right-aligns a column of figures; `hidden` keeps a heading for screen readers only. */
export type Column = string | { label: string; num?: boolean; hidden?: boolean };

export function DataTable<T>(props: {
  label: string;
  columns: Column[];
  rows: T[] | undefined;
  /** Said when the rows have arrived and there are none; nothing while they have not arrived. */
  empty: string;
  /** The rows are a previous page's or filter's while the asked-for ones load: the table dims and says it is busy. */
  busy?: boolean;
  children: (row: T) => ReactNode;
}) {
  if (!props.rows) return null;
  if (props.rows.length === 0) return <Empty>{props.empty}</Empty>;
  return (
    <div className="table-wrap">
      <table aria-label={props.label} aria-busy={props.busy ? true : undefined}>
        <thead>
          <tr>
            {props.columns.map((c) => {
              const column = typeof c === 'string' ? { label: c } : c;
              return (
                <th key={column.label} className={column.num ? 'num' : undefined}>
                  {column.hidden ? <span className="visually-hidden">{column.label}</span> : column.label}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>{props.rows.map(props.children)}</tbody>
      </table>
    </div>
  );
}
