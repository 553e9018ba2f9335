import { useState } from 'react';
import { apiErrorText } from '../../../lib/api/client';
import { useApi } from '../../../lib/api/useApi';
import { useToast } from '../../../lib/toast/useToast';
import { MSG } from '../../../../../shared/messages';
import { fetchDataExport } from '../api/fetch-data-export';

/**
 * How long the file's blob: URL outlives the click. Firefox reads the blob after the click
 * returns, and a URL revoked at once can fail the download (FileSaver.js waits 40 s too).
 */
const BLOB_URL_LIFETIME_MS = 40_000;

/**
 * "Download my data": the export is generated on request and saved as a JSON file. Its link is
 * a blob: URL that lives only until the download has started (docs/decisions/0130-data-export-answered-directly-not-through-s3.md).
 */
export function DataExportCard() {
  const api = useApi();
  const toast = useToast();
  const [busy, setBusy] = useState(false);

  async function download() {
    setBusy(true);
    try {
      const data = await fetchDataExport(api);
      const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `oddjobs-data-${data.exportedAt.slice(0, 10)}.json`;
      // Firefox follows only a link that is in the document.
      link.hidden = true;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), BLOB_URL_LIFETIME_MS);
      toast.success(MSG.profileCard.dataExported);
    } catch (error) {
      toast.error(apiErrorText(error, MSG.profileCard.dataExportFailed));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card" aria-labelledby="data-export-heading">
      <h2 id="data-export-heading">Your Data</h2>
      <p className="muted">A JSON file of everything stored about you: profile, jobs, applications, the messages you sent, reviews, notifications and payments.</p>
      <button type="button" className="button button--secondary button--block" disabled={busy} aria-busy={busy} onClick={() => void download()}>
        {busy ? 'Preparing…' : 'Download my data'}
      </button>
    </section>
  );
}
