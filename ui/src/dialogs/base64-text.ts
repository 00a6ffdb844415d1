/** The UTF-8 text of base64, or undefined when it is not valid base64. */
export function decodeBase64Text(base64: string): string | undefined {
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(base64), (char) => char.charCodeAt(0)));
  } catch {
    return undefined;
  }
}
