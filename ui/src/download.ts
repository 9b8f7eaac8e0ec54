// Saves text the CLI process produced (a recording, a contract snapshot) as a file download.

/** Offers `text` to the person as the file `name`. */
export function download(text: string, name: string, type: string): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([text], { type }));
  link.download = name;
  link.click();
  URL.revokeObjectURL(link.href);
}
