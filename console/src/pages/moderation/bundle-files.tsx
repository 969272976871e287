// The files of a skill version's bundle, each opened in place as plain text (never rendered): a moderator reads what an
// approval publishes without downloading the zip, and its publisher reads what the reviewers will (the same API route
// mounted for the owner). The API answers at most 256 KiB of a file, and says when it cut one or when a file is binary
// (docs/skill-bundles.md, "Reading a bundle's files").
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/http.js';
import { apiPath } from '../../api/paths.js';
import { formatBytes } from '../../format.js';
import { FormError, Loading } from '../../ui/status.js';
import type { VersionDetail } from '../hub/hub-api.js';

type BundleFile = { path: string; size: number };
type FileText = { path: string; size: number; binary: boolean; text?: string; truncated: boolean };

/** Who reads: a moderator (the version under review) or the skill's publisher (any version of its own). */
export type BundleReader = 'moderator' | 'owner';
const areaOf: Record<BundleReader, string> = {
  moderator: '/api/v1/moderation/skill',
  owner: '/api/v1/publisher/skill',
};

/** Each segment of the file's path encoded on its own: `scripts/run.py` stays two segments. */
const fileUrl = (reader: BundleReader, skillId: string, versionId: string, path: string) =>
  areaOf[reader] +
  apiPath`/${skillId}/versions/${versionId}/files/` +
  path
    .split('/')
    .map((segment) => apiPath`${segment}`)
    .join('/');

function FileBody({ file }: { file: FileText }) {
  if (file.binary) return <p className="muted">A binary file: not shown. Download the .zip to inspect it.</p>;
  return (
    <>
      {file.truncated ? (
        <p className="muted">
          Showing the start of this {formatBytes(file.size)} file; download the .zip to read the rest.
        </p>
      ) : null}
      <pre className="prose">{file.text}</pre>
    </>
  );
}

function OneFile(props: { reader: BundleReader; skillId: string; version: VersionDetail; file: BundleFile }) {
  const { reader, skillId, version, file } = props;
  const [open, setOpen] = useState(false);
  const text = useQuery({
    // The bundle's digest too: a bundle uploaded again under the same version is other content.
    queryKey: ['bundle-file', reader, skillId, version.id, version.bundle?.sha256, file.path],
    queryFn: () => api<FileText>(fileUrl(reader, skillId, version.id, file.path)),
    enabled: open,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return (
    <details onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>
        <code>{file.path}</code> <span className="muted">{formatBytes(file.size)}</span>
      </summary>
      {!open ? null : text.data ? (
        <FileBody file={text.data} />
      ) : text.error ? (
        <FormError error={text.error} />
      ) : (
        <Loading />
      )}
    </details>
  );
}

export function BundleFiles(props: { skillId: string; version: VersionDetail; reader?: BundleReader }) {
  const { skillId, version, reader = 'moderator' } = props;
  const files = Array.isArray(version.bundleFiles) ? (version.bundleFiles as BundleFile[]) : [];
  if (files.length === 0) return null;
  const title =
    reader === 'moderator' ? 'Files of the bundle under review' : `Read the bundle's files (${version.version})`;
  return (
    <section className="panel stack" aria-label={title}>
      <h2>{title}</h2>
      <p className="muted">
        {reader === 'moderator'
          ? 'Open a file to read it here, as plain text, before deciding.'
          : 'Each file as the reviewers read it: open one to read it here, as plain text.'}
      </p>
      {files.map((file) => (
        <OneFile key={file.path} reader={reader} skillId={skillId} version={version} file={file} />
      ))}
    </section>
  );
}
