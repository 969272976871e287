// A skill version's bundle: choose the .zip, watch the upload progress, read what the API found in it (size, files,
// SHA-256) or every problem it refused it for.
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { apiPath } from '../../api/paths.js';
import { uploadFile } from '../../api/upload.js';
import { formatBytes, formatCountOf } from '../../format.js';
import { Field } from '../../ui/field.js';
import { FormError, Notice } from '../../ui/status.js';

type Uploaded = { versionId: string; sizeBytes: number; fileCount: number; sha256: string };

export function BundleUpload(props: { skillId: string; versionId: string; version: string; onUploaded: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState(0);
  const upload = useMutation({
    mutationFn: (chosen: File) =>
      uploadFile<Uploaded>(
        apiPath`/api/v1/publisher/skill/${props.skillId}/versions/${props.versionId}/package`,
        chosen,
        {
          onProgress: setProgress,
        },
      ),
    onSuccess: props.onUploaded,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!file) return;
    setProgress(0);
    upload.mutate(file);
  };
  return (
    <form className="stack" onSubmit={submit} aria-label="Upload the skill bundle">
      <h2>Bundle of version {props.version}</h2>
      <Field label="Skill bundle (.zip, up to 10 MB)" hint="One SKILL.md at the root or in one top folder.">
        {(p) => (
          <input
            {...p}
            type="file"
            accept=".zip,application/zip"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        )}
      </Field>
      {upload.isPending || upload.isSuccess ? (
        <label className="stack">
          Upload progress
          <progress className="progress" max={1} value={progress} />
        </label>
      ) : null}
      <FormError error={upload.error} />
      {upload.data ? (
        <Notice>
          Uploaded: {formatBytes(upload.data.sizeBytes)}, {formatCountOf(upload.data.fileCount, 'file')}, SHA-256{' '}
          <code>{upload.data.sha256.slice(0, 16)}…</code>. Submit for review to have it parsed.
        </Notice>
      ) : null}
      <div>
        <button type="submit" disabled={!file || upload.isPending}>
          Upload bundle
        </button>
      </div>
    </form>
  );
}
