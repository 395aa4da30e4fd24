// Hands a downloaded file (a PDF fetched with the session's token) to the
// browser as a download under its name. (CsvExport's downloadCsv does the
// same for CSV exports.)
export function saveFile({ blob, filename }: { blob: Blob; filename: string }) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
