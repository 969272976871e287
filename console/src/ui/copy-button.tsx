// Copies a text to the clipboard and says whether it worked; `onCopied` runs once the clipboard took it.
import { useState } from 'react';

export function CopyButton({
  text,
  label = 'Copy',
  onCopied,
}: {
  text: string;
  label?: string;
  onCopied?: () => void;
}) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
      return;
    }
    onCopied?.();
  };
  return (
    <span className="copy">
      <button type="button" onClick={copy}>
        {label}
      </button>
      <span role="status" className="muted">
        {state === 'copied' ? 'Copied.' : state === 'failed' ? 'Copy failed: select the text and copy it.' : ''}
      </span>
    </span>
  );
}

/** Secrets the API shows once (one, or a batch), with a copy button and the warning that they will not be shown again. */
export function ShownOnce({ label, value, onDone }: { label: string; value: string | string[]; onDone?: () => void }) {
  const values = typeof value === 'string' ? [value] : value;
  const many = values.length > 1;
  return (
    <section className="shown-once" aria-label={label}>
      <p>
        <strong>{label}</strong> — shown only this once; copy {many ? 'them' : 'it'} now.
      </p>
      {values.map((v) => (
        <code key={v} className="secret" data-testid="shown-once">
          {v}
        </code>
      ))}
      <div className="row">
        <CopyButton text={values.join('\n')} label={many ? 'Copy all' : 'Copy'} />
        {onDone ? (
          <button type="button" onClick={onDone}>
            Done
          </button>
        ) : null}
      </div>
    </section>
  );
}
