/**
 * The file name of a Content-Disposition header: RFC 5987 `filename*=UTF-8''…` wins over the
 * plain `filename=`; percent-encoded plain names are decoded. Null when the header names none.
 */
export function fileNameFromDisposition(header: string | null | undefined): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*([^;]+)/i.exec(header);
  if (star?.[1]) {
    const value = star[1].trim().replace(/^"(.*)"$/, '$1');
    const m = /^([\w!#$%&+^`{}~-]*)'[^']*'(.*)$/.exec(value);
    const encoded = m ? (m[2] ?? '') : value;
    const name = safeDecode(encoded);
    if (name) return name;
  }
  const plain = /(?:^|;)\s*filename\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/i.exec(header);
  if (plain?.[1]) {
    let v = plain[1].trim();
    if (v.startsWith('"')) v = v.slice(1, -1).replace(/\\(.)/g, '$1');
    const name = safeDecode(v);
    if (name) return name;
  }
  return null;
}

function safeDecode(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

/** Saves a blob under a name through a temporary link. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
