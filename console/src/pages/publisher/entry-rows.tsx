// An MCP server's tools, resources, prompts or settings as rows of fields (mcp-entries.ts says which: text inputs,
// selects, checkboxes, and JSON text areas such as "Tool 1 input schema"), with "Remove resource 2" on each and "Add a
// resource" under them, which puts the keyboard's focus on the new row's name. A prompt's arguments are the same rows
// inside its row ("Prompt 1 argument 2 name", "Add an argument to prompt 1").
// A row's errors are kept under its id: each shows under its own field, named by the row as it is numbered now.
import { useState } from 'react';
import { Field } from '../../ui/field.js';
import type { FieldErrors } from './draft-state.js';
import {
  type Entry,
  type EntryInput,
  type EntryKind,
  type EntryList,
  emptyEntry,
  inputRuns,
  keptFieldsOf,
  rowErrorKey,
  rowName,
} from './mcp-entries.js';

/** A JSON text area's height: its lines, at least 4 and at most 20 (it scrolls past that). */
const jsonRows = (text: string) => Math.min(20, Math.max(4, text.split('\n').length + 1));

type RowsProps = {
  list: EntryList;
  kind: EntryKind;
  rows: Entry[];
  errors: FieldErrors;
  onChange: (rows: Entry[]) => void;
  /** The row these rows are inside ("Prompt 1"), for rows inside a row. */
  parent?: string;
};

function Rows(props: RowsProps) {
  const { list, kind, rows, errors, onChange, parent } = props;
  const [focusId, setFocusId] = useState<string | undefined>();
  const setRow = (id: string, change: Partial<Entry>) =>
    onChange(rows.map((r) => (r.id === id ? { ...r, ...change } : r)));
  const set = (row: Entry, key: string, value: string) => setRow(row.id, { values: { ...row.values, [key]: value } });
  const shownInField = new Set(kind.inputs.filter((input) => !input.checkbox).map((input) => input.key));

  const control = (row: Entry, named: string, input: EntryInput, keptHint: string | undefined) => {
    const label = `${named} ${input.label}`;
    const hint = [input.hint, keptHint].filter(Boolean).join(' ');
    const value = row.values[input.key] ?? '';
    const message = errors[rowErrorKey(list, row.id, input.key)];
    const error = message ? `${named}: ${input.key}: ${message}` : undefined;
    if (input.checkbox) {
      return (
        <label key={input.key} className="row">
          <input
            type="checkbox"
            checked={value === 'true'}
            onChange={(e) => set(row, input.key, e.target.checked ? 'true' : '')}
          />
          {label}
        </label>
      );
    }
    const options = input.options?.(row.values);
    return (
      <Field
        key={input.key}
        label={label}
        error={error}
        className={input.width ? `entry-${input.width}` : undefined}
        {...(hint ? { hint } : {})}
      >
        {(p) =>
          input.json ? (
            <textarea
              {...p}
              className="json-input"
              rows={jsonRows(value)}
              spellCheck={false}
              value={value}
              onChange={(e) => set(row, input.key, e.target.value)}
            />
          ) : options ? (
            <select {...p} value={value} onChange={(e) => set(row, input.key, e.target.value)}>
              {options.map((o) => (
                <option key={o} value={o}>
                  {input.optionLabel?.(o) ?? o}
                </option>
              ))}
            </select>
          ) : (
            <input
              {...p}
              ref={(element) => {
                if (element && input.key === 'name' && focusId === row.id) {
                  element.focus();
                  setFocusId(undefined);
                }
              }}
              value={value}
              onChange={(e) => set(row, input.key, e.target.value)}
            />
          )
        }
      </Field>
    );
  };

  const add = () => {
    const row = emptyEntry(kind);
    onChange([...rows, row]);
    setFocusId(row.id);
  };
  return (
    <>
      {rows.length === 0 && !parent ? <p className="muted">No {kind.plural} yet.</p> : null}
      {rows.map((row, i) => {
        const named = rowName(kind, i, parent);
        const kept = keptFieldsOf(kind, row);
        const keptHint = kept.length ? `Also kept as it came: ${kept.join(', ')}.` : undefined;
        const last = kind.inputs.at(-1);
        const field = (input: EntryInput) => control(row, named, input, input === last ? keptHint : undefined);
        // What the API or the schema said of the row beyond its fields (a list inside it too long, a kept field).
        const prefix = rowErrorKey(list, row.id, '');
        const rowErrors = Object.entries(errors)
          .filter(([key]) => key.startsWith(prefix) && !shownInField.has(key.slice(prefix.length)))
          .map(([key, message]) => {
            const field = key.slice(prefix.length);
            return `${named}: ${field ? `${field}: ` : ''}${message}`;
          });
        return (
          <div key={row.id} className="row entry-row">
            {inputRuns(kind.inputs).map((run) =>
              run.group ? (
                <fieldset key={run.group} className="entry-group">
                  <legend>
                    {named} {run.group}
                  </legend>
                  {run.inputs.map(field)}
                </fieldset>
              ) : (
                run.inputs.map(field)
              ),
            )}
            <button type="button" onClick={() => onChange(rows.filter((r) => r.id !== row.id))}>
              Remove {parent ? named.charAt(0).toLowerCase() + named.slice(1) : `${kind.noun} ${i + 1}`}
            </button>
            {rowErrors.map((message) => (
              <small key={message} className="field-error entry-error">
                {message}
              </small>
            ))}
            {kind.sub ? (
              <fieldset className="stack entry-sub">
                <legend>
                  {named} {kind.sub.kind.plural}
                </legend>
                <Rows
                  list={list}
                  kind={kind.sub.kind}
                  rows={row.sub}
                  errors={errors}
                  parent={named}
                  onChange={(sub) => setRow(row.id, { sub })}
                />
              </fieldset>
            ) : null}
          </div>
        );
      })}
      <div>
        <button type="button" onClick={add}>
          Add {kind.article} {kind.noun}
          {parent ? ` to ${parent.charAt(0).toLowerCase()}${parent.slice(1)}` : ''}
        </button>
      </div>
    </>
  );
}

export function EntryRows(props: {
  kind: EntryKind & { list: EntryList };
  rows: Entry[];
  errors: FieldErrors;
  onChange: (rows: Entry[]) => void;
}) {
  const { kind } = props;
  const listError = props.errors[kind.list];
  return (
    <fieldset className="stack">
      <legend>{kind.legend}</legend>
      <Rows list={kind.list} kind={kind} rows={props.rows} errors={props.errors} onChange={props.onChange} />
      {listError ? <small className="field-error">{listError}</small> : null}
    </fieldset>
  );
}
