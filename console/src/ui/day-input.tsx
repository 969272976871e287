// A UTC day typed as ISO text (2026-11-26), the way the console writes every date, instead of a date input that shows
// the browser's locale (11/26/2026). The filter takes the day once it is complete and real; until then it keeps the
// previous one and says what it needs.
import { useId, useState } from 'react';

const isoDay = /^\d{4}-\d{2}-\d{2}$/;

/** `2026-02-30` is not a day: the date must come back as the same text. */
const isRealDay = (text: string) => {
  if (!isoDay.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
};

export function DayInput(props: {
  label: string;
  value: string | undefined;
  onChange: (day: string | undefined) => void;
}) {
  const id = useId();
  const [text, setText] = useState(props.value ?? '');
  const bad = text.trim() !== '' && !isRealDay(text.trim());
  const change = (next: string) => {
    setText(next);
    const day = next.trim();
    if (day === '') props.onChange(undefined);
    else if (isRealDay(day)) props.onChange(day);
  };
  return (
    <label>
      {props.label}
      <input
        value={text}
        onChange={(e) => change(e.target.value)}
        placeholder="YYYY-MM-DD"
        inputMode="numeric"
        autoComplete="off"
        size={11}
        aria-invalid={bad ? true : undefined}
        aria-describedby={bad ? `${id}-error` : undefined}
      />
      {bad ? (
        <small id={`${id}-error`} className="field-error">
          A day as YYYY-MM-DD
        </small>
      ) : null}
    </label>
  );
}
