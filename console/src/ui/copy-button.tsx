// Copies a text to the clipboard and says whether it worked.
import { useState } from 'react';

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
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

/** A secret the API shows once, with its copy button and the warning that it will not be shown again. */
export function ShownOnce({ label, value, onDone }: { label: string; value: string; onDone?: () => void }) {
  return (
    <section className="shown-once" aria-label={label}>
      <p>
        <strong>{label}</strong> — shown only this once; copy it now.
      </p>
      <code className="secret" data-testid="shown-once">
        {value}
      </code>
      <div className="row">
        <CopyButton text={value} />
        {onDone ? (
          <button type="button" onClick={onDone}>
            Done
          </button>
        ) : null}
      </div>
    </section>
  );
}
